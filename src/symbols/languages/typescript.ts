/**
 * TypeScript and TSX: the JavaScript queries plus types, type parameters, interfaces, enums and
 * namespaces. A constructor's parameter property (`constructor(private readonly app: App)`) and a
 * field a method assigns (`this.x = …`) without declaring it are fields of the class.
 */
import type { LanguageSpec } from '../language-spec.js';
import { destructuredBindings, SCRIPT_DEFINITIONS, SCRIPT_IMPORTS, SCRIPT_REFERENCE_TYPES, SCRIPT_REFERENCES, scriptExported } from './javascript.js';

const definitions = `${SCRIPT_DEFINITIONS}
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(enum_body name: (property_identifier) @name @definition.enumMember)
(enum_assignment name: (property_identifier) @name) @definition.enumMember
(internal_module name: (identifier) @name) @definition.namespace
(method_signature name: (property_identifier) @name) @definition.method
(abstract_method_signature name: (property_identifier) @name) @definition.method
(property_signature name: (property_identifier) @name) @definition.property
(public_field_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.field
(required_parameter [(accessibility_modifier) "readonly" (override_modifier)] pattern: (identifier) @name) @definition.field
(optional_parameter [(accessibility_modifier) "readonly" (override_modifier)] pattern: (identifier) @name) @definition.field
(assignment_expression left: (member_expression object: (this) property: [(property_identifier) (private_property_identifier)] @name @definition.field))
(required_parameter pattern: (identifier) @name @definition.variable)
(optional_parameter pattern: (identifier) @name @definition.variable)
${destructuredBindings(['(required_parameter pattern: %)', '(optional_parameter pattern: %)'])}
(type_parameter name: (type_identifier) @name @definition.type)
(required_parameter pattern: (identifier) @name type: (type_annotation (_) @type))
(optional_parameter pattern: (identifier) @name type: (type_annotation (_) @type))
(public_field_definition name: (property_identifier) @name type: (type_annotation (_) @type))
(variable_declarator name: (identifier) @name type: (type_annotation (_) @type))
(class_declaration name: (type_identifier) @name (class_heritage (extends_clause value: (_) @type)))
(abstract_class_declaration name: (type_identifier) @name (class_heritage (extends_clause value: (_) @type)))
`;

const references = `${SCRIPT_REFERENCES}
(nested_type_identifier module: (_) @receiver name: (type_identifier) @reference)
`;

export const typescript: LanguageSpec = {
  language: 'TypeScript',
  grammar: { module: 'tree-sitter-typescript', member: 'typescript' },
  definitions,
  referenceTypes: [...SCRIPT_REFERENCE_TYPES, 'type_identifier'],
  references,
  imports: SCRIPT_IMPORTS,
  exported: scriptExported,
};

export const tsx: LanguageSpec = { ...typescript, language: 'TSX', grammar: { module: 'tree-sitter-typescript', member: 'tsx' } };
