/**
 * JavaScript, and the query parts TypeScript shares with it. Exported means inside an `export`
 * statement, named by one (`export { x }`, `export default x`) or by CommonJS (`exports.f = …`,
 * `module.exports = { x }`); class members follow their class unless private. `this.x = …` in a
 * method defines the field x of its class; `require` calls bind like imports (destructured, `.name`).
 * Re-exports are imports of the file that writes them: `export { a as b } from` binds b,
 * `export * as ns from` binds ns to the module, `export * from` is a wildcard.
 * `X.prototype.m = function …`, `obj.m = function …` and `Object.defineProperty(X[.prototype], 'p', …)`
 * define members declared apart from X, whose declared type is X.
 */
import { hasModifier, isMember, underType, type DefinitionContext, type LanguageSpec } from '../language-spec.js';

/** How deep destructuring patterns are followed (`{ a: { b: [c] } }` is three). */
const DESTRUCTURING_DEPTH = 3;

/** A name a destructuring element binds directly: `x`, `x = 1`, `...x`. */
const BOUND_NAME = '(identifier) @name @definition.variable (assignment_pattern left: (identifier) @name @definition.variable) (rest_pattern (identifier) @name @definition.variable)';

/** An object or array pattern, and every name it binds up to `depth` levels of nesting. */
function bindingPattern(depth: number): string {
  const nested = depth > 1 ? ` ${bindingPattern(depth - 1)}` : '';
  const objectElements = `[(shorthand_property_identifier_pattern) @name @definition.variable (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @definition.variable) (pair_pattern value: [${BOUND_NAME}${nested}]) (rest_pattern (identifier) @name @definition.variable)]`;
  return `[(object_pattern ${objectElements}) (array_pattern [${BOUND_NAME}${nested}])]`;
}

/**
 * The names destructuring declarations bind in `contexts` (query prefixes with `%` for the pattern):
 * parameters (`f({ a, b: c })`, TypeScript's `{ gen }: Cxt`), declarations (`const [x, ...rest] = …`),
 * `for (const { k } of …)` and `catch ({ message })`. A destructuring assignment (`({ a } = o)`)
 * declares nothing: it rebinds.
 */
export function destructuredBindings(contexts: readonly string[]): string {
  return contexts.map((context) => context.replace('%', bindingPattern(DESTRUCTURING_DEPTH))).join('\n');
}

export const SCRIPT_DEFINITIONS = `
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(method_definition name: (property_identifier) @name (#eq? @name "constructor")) @definition.constructor
(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @definition.constant)
(variable_declarator name: (identifier) @name) @definition.variable
${destructuredBindings(['(variable_declarator name: %)', '(for_in_statement left: %)', '(catch_clause parameter: %)'])}
(arrow_function parameter: (identifier) @name @definition.variable)
(variable_declarator name: (identifier) @name value: (new_expression constructor: (identifier) @type))
(assignment_expression left: (member_expression object: (this) property: (property_identifier) @name) right: (new_expression constructor: (identifier) @type))
(for_in_statement left: (identifier) @name @definition.variable)
(catch_clause parameter: (identifier) @name @definition.variable)
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @name)
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.function (#eq? @_exports "exports"))
(expression_statement (assignment_expression
  left: (member_expression object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) property: (property_identifier) @name)
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.function (#eq? @_module "module") (#eq? @_exports "exports"))
(expression_statement (assignment_expression
  left: (member_expression object: (member_expression object: (identifier) @type property: (property_identifier) @_prototype) property: (property_identifier) @name)
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.method (#eq? @_prototype "prototype"))
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @type property: (property_identifier) @name)
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.method (#not-eq? @type "exports") (#not-eq? @type "module"))
(call_expression function: (member_expression object: (identifier) @_object property: (property_identifier) @_define)
  arguments: (arguments . (identifier) @type . (string (string_fragment) @name)) (#eq? @_object "Object") (#eq? @_define "defineProperty")) @definition.property
(call_expression function: (member_expression object: (identifier) @_object property: (property_identifier) @_define)
  arguments: (arguments . (member_expression object: (identifier) @type property: (property_identifier) @_prototype) . (string (string_fragment) @name))
  (#eq? @_object "Object") (#eq? @_define "defineProperty") (#eq? @_prototype "prototype")) @definition.property
(export_statement !source (export_clause (export_specifier name: (identifier) @export)))
(export_statement value: (identifier) @export)
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: [(identifier) @export (object (shorthand_property_identifier) @export)] (#eq? @_module "module") (#eq? @_exports "exports"))
`;

export const SCRIPT_REFERENCE_TYPES = ['identifier', 'property_identifier', 'private_property_identifier', 'shorthand_property_identifier'];

export const SCRIPT_REFERENCES = `
(member_expression object: (_) @receiver property: [(property_identifier) (private_property_identifier)] @reference)
(assignment_expression left: (member_expression object: (_) @receiver property: [(property_identifier) (private_property_identifier)] @reference @assigned))
`;

export const SCRIPT_IMPORTS = `
(import_statement source: (string (string_fragment) @source))
(import_statement (import_clause (identifier) @default) source: (string (string_fragment) @source))
(import_statement (import_clause (namespace_import (identifier) @namespace)) source: (string (string_fragment) @source))
(import_statement (import_clause (named_imports (import_specifier name: (_) @name alias: (_) @alias))) source: (string (string_fragment) @source))
(import_statement (import_clause (named_imports (import_specifier name: (_) @name !alias))) source: (string (string_fragment) @source))
(variable_declarator name: (identifier) @namespace value: (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @source) .)) (#eq? @_require "require"))
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @name) value: (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @source) .)) (#eq? @_require "require"))
(variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @name value: (identifier) @alias)) value: (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @source) .)) (#eq? @_require "require"))
(variable_declarator name: (identifier) @alias value: (member_expression object: (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @source) .)) property: (property_identifier) @name) (#eq? @_require "require"))
(export_statement (export_clause (export_specifier name: (_) @name alias: (_) @alias)) source: (string (string_fragment) @source))
(export_statement (export_clause (export_specifier name: (_) @name !alias)) source: (string (string_fragment) @source))
(export_statement (namespace_export (identifier) @namespace) source: (string (string_fragment) @source))
(export_statement "*" @wildcard source: (string (string_fragment) @source))
`;

export function scriptExported(def: DefinitionContext): boolean {
  // `exports.f = function …` is CommonJS's export statement.
  if (!isMember(def)) return underType(def.node, 'export_statement', 2) || def.node.type === 'assignment_expression';
  return def.parent!.exported && !def.name.startsWith('#') && !hasModifier(def.node, ['accessibility_modifier'], /private|protected/);
}

export const javascript: LanguageSpec = {
  language: 'JavaScript',
  grammar: { module: 'tree-sitter-javascript' },
  definitions: `${SCRIPT_DEFINITIONS}
(class_declaration name: (identifier) @name) @definition.class
(field_definition property: [(property_identifier) (private_property_identifier)] @name) @definition.field
(assignment_expression left: (member_expression object: (this) property: [(property_identifier) (private_property_identifier)] @name @definition.field))
(formal_parameters (identifier) @name @definition.variable)
(formal_parameters (assignment_pattern left: (identifier) @name @definition.variable))
${destructuredBindings(['(formal_parameters %)'])}
(class_declaration name: (identifier) @name (class_heritage (_) @type))
`,
  referenceTypes: SCRIPT_REFERENCE_TYPES,
  references: SCRIPT_REFERENCES,
  imports: SCRIPT_IMPORTS,
  exported: scriptExported,
};
