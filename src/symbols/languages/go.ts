/**
 * Go: definitions, references and imports as tree-sitter queries; exported means capitalised. A
 * struct's declared type is the first type it embeds (its methods and fields are promoted), a
 * method's is its receiver's. A label is a variable of its function (`continue walk` uses it).
 */
import { isMember, type LanguageSpec } from '../language-spec.js';

export const go: LanguageSpec = {
  language: 'Go',
  grammar: { module: 'tree-sitter-go' },
  definitions: `
(function_declaration name: (identifier) @name) @definition.function
(method_declaration name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.class
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(field_declaration name: (field_identifier) @name) @definition.field
(method_elem name: (field_identifier) @name) @definition.method
(const_spec name: (identifier) @name) @definition.constant
(var_spec name: (identifier) @name) @definition.variable
(short_var_declaration left: (expression_list (identifier) @name @definition.variable))
(range_clause left: (expression_list (identifier) @name @definition.variable))
(parameter_declaration name: (identifier) @name @definition.variable)
(variadic_parameter_declaration name: (identifier) @name @definition.variable)
(labeled_statement label: (label_name) @name @definition.variable)
(parameter_declaration name: (identifier) @name type: (_) @type)
(field_declaration name: (field_identifier) @name type: (_) @type)
(var_spec name: (identifier) @name type: (_) @type)
(method_declaration receiver: (parameter_list (parameter_declaration type: (_) @type)) name: (field_identifier) @name)
(type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list (field_declaration !name type: [(type_identifier) (qualified_type)] @type))))
(short_var_declaration left: (expression_list . (identifier) @name .) right: (expression_list . [(composite_literal type: (_) @type) (unary_expression operand: (composite_literal type: (_) @type))] .))
`,
  referenceTypes: ['identifier', 'type_identifier', 'field_identifier', 'package_identifier', 'label_name'],
  references: `
(selector_expression operand: (_) @receiver field: (field_identifier) @reference)
(qualified_type package: (package_identifier) @receiver name: (type_identifier) @reference)
`,
  imports: `
(import_spec name: (package_identifier) @namespace path: (interpreted_string_literal (interpreted_string_literal_content) @source))
(import_spec name: (blank_identifier) @namespace path: (interpreted_string_literal (interpreted_string_literal_content) @source))
(import_spec name: (dot) @wildcard path: (interpreted_string_literal (interpreted_string_literal_content) @source))
(import_spec !name path: (interpreted_string_literal (interpreted_string_literal_content) @source))
`,
  exported: (def) => /^\p{Lu}/u.test(def.name) && (!isMember(def) || def.parent!.exported || def.kind === 'method'),
  moduleBinding: (source) => source.slice(source.lastIndexOf('/') + 1),
};
