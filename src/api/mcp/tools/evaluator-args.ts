/**
 * The arguments of an evaluator script's call to a module (plain values read from Lua): positional
 * strings and an options table whose keys are checked, each wrong one a ToolError that says what
 * to pass. An empty Lua table reads as an empty object, so it is also an empty list.
 */
import { ToolError } from '../tool.js';

type Value = unknown;

function describe(value: Value): string {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a table';
  return `a ${typeof value}`;
}

function isEmptyTable(value: Value): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

export class ScriptArgs {
  constructor(private readonly values: readonly Value[]) {}

  /** Positional argument `index` (1-based), a non-empty string. */
  string(index: number, what: string): string {
    const value = this.values[index - 1];
    if (typeof value !== 'string' || value.trim() === '') throw new ToolError(`argument ${index} (${what}) must be a non-empty string, not ${describe(value)}`);
    return value;
  }

  optionalString(index: number, what: string): string | undefined {
    const value = this.values[index - 1];
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'string') throw new ToolError(`argument ${index} (${what}) must be a string, not ${describe(value)}`);
    return value;
  }

  /** Whether positional argument `index` is a table (options given in place of an optional string). */
  isTable(index: number): boolean {
    const value = this.values[index - 1];
    return typeof value === 'object' && value !== null;
  }

  /** Positional argument `index`: an options table with only the `known` keys, or nothing. */
  options(index: number, known: readonly string[]): ScriptOptions {
    const value = this.values[index - 1];
    if (value === null || value === undefined || isEmptyTable(value)) return new ScriptOptions({}, known);
    if (typeof value !== 'object' || Array.isArray(value)) throw new ToolError(`argument ${index} must be a table of options (${known.join(', ')}), not ${describe(value)}`);
    return new ScriptOptions(value as Readonly<Record<string, Value>>, known);
  }
}

export class ScriptOptions {
  constructor(private readonly values: Readonly<Record<string, Value>>, known: readonly string[]) {
    const unknown = Object.keys(values).filter((key) => !known.includes(key));
    if (unknown.length > 0) throw new ToolError(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')} (known: ${known.join(', ')})`);
  }

  string(key: string): string | undefined {
    const value = this.values[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw new ToolError(`option ${key} must be a string, not ${describe(value)}`);
    return value;
  }

  requiredString(key: string, example: string): string {
    const value = this.string(key);
    if (value === undefined || value.trim() === '') throw new ToolError(`option ${key} is required: pass a non-empty string, e.g. ${key} = ${JSON.stringify(example)}`);
    return value;
  }

  integer(key: string, min: number, max: number): number | undefined {
    const value = this.values[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new ToolError(`option ${key} must be an integer from ${min} to ${max}, not ${typeof value === 'number' ? value : describe(value)}`);
    return value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.values[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw new ToolError(`option ${key} must be true or false, not ${describe(value)}`);
    return value;
  }

  /** A list of strings; a single string counts as a list of one. */
  strings(key: string): string[] | undefined {
    const value = this.values[key];
    if (value === undefined || value === null || isEmptyTable(value)) return value === undefined || value === null ? undefined : [];
    if (typeof value === 'string') return [value];
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new ToolError(`option ${key} must be a list of strings, e.g. {"a", "b"}, not ${describe(value)}`);
    return value as string[];
  }

  requiredStrings(key: string, example: string): string[] {
    const value = (this.strings(key) ?? []).filter((s) => s.trim() !== '');
    if (value.length === 0) throw new ToolError(`option ${key} is required: pass a list of strings, e.g. ${key} = {${JSON.stringify(example)}}`);
    return value;
  }
}
