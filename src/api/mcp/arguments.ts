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

/** Every problem is named with its argument, so an agent can fix its call in one retry. */
export function checkArguments(schema: ObjectSchema, input: unknown): CheckedArguments {
  const args = input === undefined ? {} : input;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ok: false, message: 'arguments must be an object' };
  const problems: string[] = [];
  for (const name of schema.required) {
    if ((args as Record<string, unknown>)[name] === undefined) problems.push(`"${name}" is required`);
  }
  for (const [name, value] of Object.entries(args)) {
    const property = schema.properties[name];
    if (property === undefined) {
      problems.push(`unknown argument "${name}" (known: ${Object.keys(schema.properties).join(', ')})`);
      continue;
    }
    if (value === undefined || value === null) continue;
    const problem = checkProperty(property, value);
    if (problem !== null) problems.push(`"${name}" ${problem}`);
  }
  if (problems.length > 0) return { ok: false, message: `Invalid arguments: ${problems.join('; ')}.` };
  const clean: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) if (value !== null && value !== undefined) clean[name] = value;
  return { ok: true, args: clean };
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

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
