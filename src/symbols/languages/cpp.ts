/** C++: the C queries plus classes, namespaces, methods (in class and `A::f` out of it) and `using`. */
import type { LanguageSpec } from '../language-spec.js';
import { C_ATTRIBUTE_MACROS, C_DEFINITIONS, C_IMPORTS, C_REFERENCE_TYPES, C_REFERENCES, cExported } from './c.js';

const definitions = `
(field_declaration_list (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor)
(field_declaration_list (function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor)
(field_declaration_list (function_definition declarator: (function_declarator declarator: (field_identifier) @name)) @definition.method)
(field_declaration_list (function_definition declarator: (reference_declarator (function_declarator declarator: (field_identifier) @name))) @definition.method)
(field_declaration_list (function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))) @definition.method)
(field_declaration declarator: (function_declarator declarator: (field_identifier) @name)) @definition.method
(function_definition declarator: (function_declarator declarator: (qualified_identifier name: (identifier) @name))) @definition.method
(function_definition declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (identifier) @name)))) @definition.method
${C_DEFINITIONS}
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(namespace_definition name: (namespace_identifier) @name) @definition.namespace
(alias_declaration name: (type_identifier) @name) @definition.type
(function_definition declarator: (function_declarator parameters: (parameter_list (parameter_declaration declarator: (reference_declarator (identifier) @name @definition.variable)))))
(for_range_loop declarator: (identifier) @name @definition.variable)
`;

const references = `${C_REFERENCES}
(qualified_identifier scope: (_) @receiver name: [(identifier) (type_identifier)] @reference)
`;

const imports = `${C_IMPORTS}
(using_declaration "namespace" (_) @source) @wildcard
(using_declaration (qualified_identifier scope: (_) @source name: (_) @name))
`;

export const cpp: LanguageSpec = {
  language: 'C++',
  grammar: { module: 'tree-sitter-cpp' },
  definitions,
  referenceTypes: [...C_REFERENCE_TYPES, 'namespace_identifier'],
  references,
  imports,
  attributeMacros: C_ATTRIBUTE_MACROS,
  listDirectives: true,
  exported: cExported,
};
