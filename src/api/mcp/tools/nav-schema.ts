/** The argument descriptions go_to_definition and find_references share: the file, the name and the usage position. */
import type { PropertySchema } from '../arguments.js';

export const NAV_PATH_ARG: PropertySchema = { type: 'string', description: 'The file that uses the symbol.' };
export const SYMBOL_ARG: PropertySchema = { type: 'string', description: "The name (a method's without its class)." };
export const LINE_ARG: PropertySchema = { type: 'integer', minimum: 1, description: '1-based line of the occurrence (tells shadowed names apart).' };
export const COLUMN_ARG: PropertySchema = { type: 'integer', minimum: 1, description: '1-based column, when the name occurs twice on the line.' };
