/**
 * Python: exported means not `_`-prefixed (dunders excepted) at module level or in an exported class.
 * Instance attributes are the fields methods assign through `self` (the name alone is the
 * definition, so the rest of the statement stays in the method's scope). A name's declared type is
 * its annotation, or the class (a CapWords name, by convention) whose call it is assigned; a
 * `self.x = name` field is typed as that name, which navigation follows to its declared type.
 */
import type { LanguageSpec } from '../language-spec.js';

const PRIVATE = /^_(?!_\w*__$)/;

export const python: LanguageSpec = {
  language: 'Python',
  grammar: { module: 'tree-sitter-python' },
  definitions: `
(class_definition body: (block (function_definition name: (identifier) @name (#eq? @name "__init__")) @definition.constructor))
(class_definition body: (block (decorated_definition definition: (function_definition name: (identifier) @name (#eq? @name "__init__")) @definition.constructor)))
(class_definition body: (block (function_definition name: (identifier) @name) @definition.method))
(class_definition body: (block (decorated_definition definition: (function_definition name: (identifier) @name) @definition.method)))
(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class
(class_definition body: (block (expression_statement (assignment left: (identifier) @name) @definition.field)))
(assignment left: (attribute object: (identifier) @_self attribute: (identifier) @name @definition.field) (#eq? @_self "self"))
(module (expression_statement (assignment left: (identifier) @name (#match? @name "^[A-Z][A-Z0-9_]*$")) @definition.constant))
(assignment left: (identifier) @name) @definition.variable
(assignment left: (pattern_list (identifier) @name @definition.variable))
(assignment left: (tuple_pattern (identifier) @name @definition.variable))
(for_statement left: (identifier) @name @definition.variable)
(for_statement left: (pattern_list (identifier) @name @definition.variable))
(parameters (identifier) @name @definition.variable)
(lambda_parameters (identifier) @name @definition.variable)
(default_parameter name: (identifier) @name @definition.variable)
(typed_parameter . (identifier) @name @definition.variable)
(typed_default_parameter name: (identifier) @name @definition.variable)
(typed_parameter . (identifier) @name type: (type) @type)
(class_definition name: (identifier) @name superclasses: (argument_list . [(identifier) (attribute)] @type))
(typed_default_parameter name: (identifier) @name type: (type) @type)
(assignment left: (identifier) @name type: (type) @type)
(assignment left: (attribute object: (identifier) @_self attribute: (identifier) @name) type: (type) @type (#eq? @_self "self"))
(assignment left: (identifier) @name right: (call function: (identifier) @type) (#match? @type "^[A-Z]"))
(assignment left: (attribute object: (identifier) @_self attribute: (identifier) @name) right: (call function: (identifier) @type) (#eq? @_self "self") (#match? @type "^[A-Z]"))
(assignment left: (attribute object: (identifier) @_self attribute: (identifier) @name) right: (identifier) @type (#eq? @_self "self"))
(list_splat_pattern (identifier) @name @definition.variable)
(dictionary_splat_pattern (identifier) @name @definition.variable)
(with_item value: (as_pattern alias: (as_pattern_target (identifier) @name @definition.variable)))
(except_clause (as_pattern alias: (as_pattern_target (identifier) @name @definition.variable)))
`,
  referenceTypes: ['identifier'],
  references: `
(attribute object: (_) @receiver attribute: (identifier) @reference)
(assignment left: (attribute object: (_) @receiver attribute: (identifier) @reference @assigned))
`,
  imports: `
(import_statement name: (dotted_name) @source)
(import_statement name: (aliased_import name: (dotted_name) @source alias: (identifier) @namespace))
(import_from_statement module_name: (_) @source name: (dotted_name) @name)
(import_from_statement module_name: (_) @source name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias))
(import_from_statement module_name: (_) @source (wildcard_import) @wildcard)
`,
  exported: (def) => !PRIVATE.test(def.name) && (def.parent === null || def.parent.exported),
  moduleBinding: (source) => source.split('.')[0]!,
  firstAssignmentDefines: true,
  fallbackBindings: ['except_clause'],
};
