/**
 * Java: exported means `public`, or a member of an exported interface or enum. A class's declared
 * type is the class it extends, else the first interface it implements (whose nested types and
 * constants it sees).
 */
import { hasModifier, type LanguageSpec } from '../language-spec.js';

export const java: LanguageSpec = {
  language: 'Java',
  grammar: { module: 'tree-sitter-java' },
  definitions: `
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(enum_constant name: (identifier) @name) @definition.enumMember
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(field_declaration (modifiers) @_modifiers declarator: (variable_declarator name: (identifier) @name) (#match? @_modifiers "static") (#match? @_modifiers "final")) @definition.constant
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant
(local_variable_declaration declarator: (variable_declarator name: (identifier) @name) @definition.variable)
(formal_parameter name: (identifier) @name @definition.variable)
(enhanced_for_statement name: (identifier) @name @definition.variable)
(catch_formal_parameter name: (identifier) @name @definition.variable)
(lambda_expression parameters: (identifier) @name @definition.variable)
(formal_parameter type: (_) @type name: (identifier) @name)
(class_declaration name: (identifier) @name superclass: (superclass (_) @type))
(class_declaration name: (identifier) @name interfaces: (super_interfaces (type_list . (_) @type)))
(interface_declaration name: (identifier) @name (extends_interfaces (type_list . (_) @type)))
(local_variable_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name))
(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name))
(enhanced_for_statement type: (_) @type name: (identifier) @name)
`,
  referenceTypes: ['identifier', 'type_identifier'],
  references: `
(field_access object: (_) @receiver field: (identifier) @reference)
(method_invocation object: (_) @receiver name: (identifier) @reference)
(scoped_type_identifier (_) @receiver . (type_identifier) @reference .)
`,
  imports: `
(import_declaration (scoped_identifier scope: (_) @source name: (identifier) @name) .)
(import_declaration (scoped_identifier) @source (asterisk) @wildcard)
`,
  exported: (def) =>
    hasModifier(def.node, ['modifiers'], /\bpublic\b/) ||
    (def.parent !== null && def.parent.exported && (def.parent.kind === 'interface' || def.kind === 'enumMember')),
};
