/**
 * Rust: exported means `pub` (trait items and enum variants follow their parent). A method's declared
 * type is the type its `impl` is for, as a Go method's is its receiver's.
 */
import { hasModifier, isMember, type LanguageSpec } from '../language-spec.js';

export const rust: LanguageSpec = {
  language: 'Rust',
  grammar: { module: 'tree-sitter-rust' },
  definitions: `
(impl_item body: (declaration_list (function_item name: (identifier) @name (#eq? @name "new")) @definition.constructor))
(impl_item body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(trait_item body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(trait_item body: (declaration_list (function_signature_item name: (identifier) @name) @definition.method))
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.class
(union_item name: (type_identifier) @name) @definition.class
(enum_item name: (type_identifier) @name) @definition.enum
(enum_variant name: (identifier) @name) @definition.enumMember
(trait_item name: (type_identifier) @name) @definition.interface
(type_item name: (type_identifier) @name) @definition.type
(associated_type name: (type_identifier) @name) @definition.type
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.variable
(mod_item name: (identifier) @name) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
(field_declaration name: (field_identifier) @name) @definition.field
(let_declaration pattern: (identifier) @name @definition.variable)
(let_declaration pattern: (tuple_pattern (identifier) @name @definition.variable))
(parameter pattern: (identifier) @name @definition.variable)
(parameter pattern: (tuple_pattern (identifier) @name @definition.variable))
(closure_parameters (identifier) @name @definition.variable)
(for_expression pattern: (identifier) @name @definition.variable)
(impl_item type: (_) @type body: (declaration_list (function_item name: (identifier) @name)))
(parameter pattern: (identifier) @name type: (_) @type)
(let_declaration pattern: (identifier) @name type: (_) @type)
(field_declaration name: (field_identifier) @name type: (_) @type)
`,
  referenceTypes: ['identifier', 'type_identifier', 'field_identifier'],
  references: `
(field_expression value: (_) @receiver field: (field_identifier) @reference)
(scoped_identifier path: (_) @receiver name: (identifier) @reference)
(scoped_type_identifier path: (_) @receiver name: (type_identifier) @reference)
`,
  imports: `
(use_declaration argument: (scoped_identifier path: (_) @source name: (identifier) @name))
(use_declaration argument: (identifier) @name @source)
(use_declaration argument: (use_as_clause path: (scoped_identifier path: (_) @source name: (identifier) @name) alias: (identifier) @alias))
(use_declaration argument: (use_wildcard (_) @source) @wildcard)
(use_declaration argument: (scoped_use_list path: (_) @source list: (use_list (identifier) @name)))
(use_declaration argument: (scoped_use_list path: (_) @source list: (use_list (use_as_clause path: (identifier) @name alias: (identifier) @alias))))
(use_declaration argument: (scoped_use_list path: (scoped_identifier name: (identifier) @namespace) @source list: (use_list (self))))
(use_declaration argument: (scoped_use_list path: (_) @source list: (use_list (scoped_identifier path: (_) @source name: (identifier) @name))))
(use_declaration argument: (scoped_use_list path: (_) @source list: (use_list (use_as_clause path: (scoped_identifier path: (_) @source name: (identifier) @name) alias: (identifier) @alias))))
(use_declaration argument: (scoped_use_list path: (_) @source list: (use_list (use_wildcard (_) @source) @wildcard)))
(use_declaration argument: (scoped_use_list path: (_) @source list: (use_list (scoped_use_list path: (_) @source list: (use_list (identifier) @name)))))
(use_declaration argument: (scoped_use_list path: (_) @source list: (use_list (scoped_use_list path: (_) @source list: (use_list (use_as_clause path: (identifier) @name alias: (identifier) @alias))))))
(use_declaration argument: (scoped_use_list path: (_) @source list: (use_list (scoped_use_list path: (identifier) @namespace @source list: (use_list (self))))))
(use_declaration argument: (scoped_use_list path: (_) @source list: (use_list (use_list (identifier) @name))))
(use_declaration argument: (use_list (scoped_identifier path: (_) @source name: (identifier) @name)))
(use_declaration argument: (use_list (use_as_clause path: (scoped_identifier path: (_) @source name: (identifier) @name) alias: (identifier) @alias)))
(use_declaration argument: (use_list (scoped_use_list path: (_) @source list: (use_list (identifier) @name))))
(use_declaration argument: (use_list (scoped_use_list path: (_) @source list: (use_list (use_as_clause path: (identifier) @name alias: (identifier) @alias)))))
`,
  sourceSeparator: '::',
  exported: (def) => (isMember(def) && def.parent!.kind !== 'class' ? def.parent!.exported : hasModifier(def.node, ['visibility_modifier'], /^pub/)),
};
