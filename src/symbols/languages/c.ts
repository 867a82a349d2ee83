/**
 * C, and the query parts C++ shares with it. Exported means file level and not `static`; members
 * follow their struct. Prototypes are declarations, not definitions, so they are left out.
 */
import { hasModifier, type DefinitionContext, type LanguageSpec } from '../language-spec.js';

const declarators = (inner: string): string[] => [inner, `(pointer_declarator declarator: ${inner})`, `(array_declarator declarator: ${inner})`];

const functionDefinitions = (name: string, kind: string): string =>
  [`(function_declarator declarator: ${name})`, `(pointer_declarator declarator: (function_declarator declarator: ${name}))`, `(pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: ${name})))`]
    .map((d) => `(function_definition declarator: ${d}) @definition.${kind}`).join('\n');

const parameters = ['(function_declarator %s)', '(pointer_declarator declarator: (function_declarator %s))']
  .flatMap((fn) => declarators('(identifier) @name @definition.variable').map((d) => `(function_definition declarator: ${fn.replace('%s', `parameters: (parameter_list (parameter_declaration declarator: ${d}))`)})`))
  .join('\n');

const variables = declarators('(identifier) @name').flatMap((d) => [
  `(declaration declarator: ${d} @definition.variable)`,
  `(declaration declarator: (init_declarator declarator: ${d}) @definition.variable)`,
]).join('\n');

const fields = [...declarators('(field_identifier) @name'), '(function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))']
  .map((d) => `(field_declaration declarator: ${d}) @definition.field`).join('\n');

export const C_DEFINITIONS = `
${functionDefinitions('(identifier) @name', 'function')}
(struct_specifier name: (type_identifier) @name body: (_)) @definition.class
(union_specifier name: (type_identifier) @name body: (_)) @definition.class
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(enumerator name: (identifier) @name) @definition.enumMember
(type_definition declarator: (type_identifier) @name) @definition.type
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name) @definition.macro
(preproc_function_def parameters: (preproc_params (identifier) @name @definition.variable))
${fields}
${variables}
${parameters}
`;

export const C_REFERENCE_TYPES = ['identifier', 'type_identifier', 'field_identifier'];

export const C_REFERENCES = `
(field_expression argument: (_) @receiver field: (field_identifier) @reference)
`;

export const C_IMPORTS = `
(preproc_include path: (_) @source)
`;

/**
 * Attribute-like macros of the Linux kernel (include/linux/compiler*.h, init.h, linkage.h, sparse
 * annotations). Unexpanded, they read as types or calls, so `static __always_inline void *f(…)`
 * or `asmlinkage __visible void __sched schedule(void)` lose their function: blanking them, as
 * ctags' `-I` list does, restores it. Kept to common, unambiguous names: none is ever a value.
 */
export const C_ATTRIBUTE_MACROS: readonly string[] = [
  'asmlinkage', 'notrace', 'noinline', 'noinstr',
  '__always_inline', '__visible', '__sched', '__cold', '__pure', '__weak', '__noreturn', '__flatten', '__malloc',
  '__must_check', '__maybe_unused', '__always_unused', '__used', '__deprecated', '__latent_entropy',
  '__init', '__exit', '__initdata', '__initconst', '__meminit', '__ref', '__kprobes', '__read_mostly', '__ro_after_init',
  '__user', '__iomem', '__rcu', '__percpu', '__force', '__bitwise', '__packed', '__randomize_layout',
  '____cacheline_aligned', '____cacheline_aligned_in_smp', '__cacheline_aligned', '__cacheline_aligned_in_smp',
  '__assume_kmalloc_alignment',
  '__attribute__()', '__attribute()', '__alloc_size()', '__printf()', '__scanf()', '__aligned()', '__section()',
  '__acquires()', '__releases()', '__must_hold()',
];

const STATIC = /^static$/;

export function cExported(def: DefinitionContext): boolean {
  // Locals never get here (extract.ts); members and namespace contents follow their container.
  if (def.parent !== null) return def.parent.exported;
  const holder = def.node.parent;
  return !hasModifier(def.node, ['storage_class_specifier'], STATIC) && !(holder && holder.type === 'declaration' && hasModifier(holder, ['storage_class_specifier'], STATIC));
}

export const c: LanguageSpec = {
  language: 'C',
  grammar: { module: 'tree-sitter-c' },
  definitions: C_DEFINITIONS,
  referenceTypes: C_REFERENCE_TYPES,
  references: C_REFERENCES,
  imports: C_IMPORTS,
  attributeMacros: C_ATTRIBUTE_MACROS,
  listDirectives: true,
  exported: cExported,
};
