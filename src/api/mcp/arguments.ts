/**
 * The JSON Schema subset MCP tools declare (flat objects of strings, integers, booleans and string
 * arrays) and its checker: one schema both advertises the arguments and validates them.
 */

export type PropertySchema =
  | { readonly type: 'string'; readonly description: string }
  | { readonly type: 'integer'; readonly description: string; readonly minimum?: number; readonly maximum?: number }
  | { readonly type: 'boolean'; readonly description: string }
  | { readonly type: 'array'; readonly description: string; readonly items: { readonly type: 'string' }; readonly maxItems?: number };

export interface ObjectSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, PropertySchema>>;
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

export function objectSchema(properties: Readonly<Record<string, PropertySchema>>, required: readonly string[]): ObjectSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

export type CheckedArguments = { readonly ok: true; readonly args: Record<string, unknown> } | { readonly ok: false; readonly message: string };

/** Enough problems for an agent to fix its call; a thousand unknown keys need not be listed one by one. */
const MAX_PROBLEMS_SHOWN = 8;

/**
 * Every problem is named with its argument, so an agent can fix its call in one retry. `input` is
 * untrusted JSON: names are looked up as own properties only (`toString`, `constructor` and
 * `__proto__` are unknown arguments like any other), and values are described without recursing.
 */
export function checkArguments(schema: ObjectSchema, input: unknown): CheckedArguments {
  const args = input === undefined ? {} : input;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ok: false, message: `Invalid arguments: arguments must be a JSON object, not ${describe(args)}.` };
  const given = args as Record<string, unknown>;
  const problems: string[] = [];
  for (const name of schema.required) {
    if (!Object.hasOwn(given, name) || given[name] === null) problems.push(`"${name}" is required`);
  }
  const clean: Record<string, unknown> = {};
  for (const name of Object.keys(given)) {
    const value = given[name];
    if (!Object.hasOwn(schema.properties, name)) {
      problems.push(`unknown argument ${quoteName(name)} (known: ${Object.keys(schema.properties).join(', ')})`);
      continue;
    }
    if (value === null) continue;
    const problem = checkProperty(schema.properties[name]!, value);
    if (problem !== null) problems.push(`"${name}" ${problem}`);
    else clean[name] = value;
  }
  if (problems.length > 0) return { ok: false, message: `Invalid arguments: ${listProblems(problems)}.` };
  return { ok: true, args: clean };
}

function listProblems(problems: readonly string[]): string {
  const shown = problems.slice(0, MAX_PROBLEMS_SHOWN).join('; ');
  const more = problems.length - MAX_PROBLEMS_SHOWN;
  return more > 0 ? `${shown}; and ${more} more` : shown;
}

function quoteName(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
}

function checkProperty(property: PropertySchema, value: unknown): string | null {
  switch (property.type) {
    case 'string':
      return typeof value === 'string' ? null : `must be a string, not ${describe(value)}`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `must be a boolean, not ${describe(value)}`;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return `must be an integer, not ${describe(value)}`;
      if (property.minimum !== undefined && value < property.minimum) return `must be at least ${property.minimum}`;
      if (property.maximum !== undefined && value > property.maximum) return `must be at most ${property.maximum}`;
      return null;
    case 'array':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return `must be an array of strings, not ${describe(value)}`;
      if (property.maxItems !== undefined && value.length > property.maxItems) return `may hold at most ${property.maxItems} values`;
      return null;
  }
}

/** Small flat arrays and objects are shown, nested or large ones only by kind: they may nest without end. */
const MAX_SHOWN_ENTRIES = 8;

/** A short description of any JSON value for a message; never recurses. */
function describe(value: unknown): string {
  if (typeof value !== 'object' || value === null) return shortText(typeof value === 'string' ? JSON.stringify(value) : String(value));
  const entries = Array.isArray(value) ? value : Object.values(value);
  const flat = entries.length <= MAX_SHOWN_ENTRIES && entries.every((v) => typeof v !== 'object' || v === null);
  if (flat) return shortText(JSON.stringify(value));
  if (!Array.isArray(value)) return 'an object';
  return `an array of ${value.length} value${value.length === 1 ? '' : 's'}`;
}

function shortText(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
