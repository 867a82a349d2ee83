/**
 * Who can see a definition from where, as resolution asks it: bare inside its scope or only through
 * a receiver, from another file or repository, across languages of one family.
 */
import type { SymbolDefinition } from '../../model/symbols.js';
import { MEMBER_KINDS } from '../language-spec.js';
import { familyOf, isContainer, isMemberDefinition, membersVisibleBare, type LanguageFamily } from './language-rules.js';
import type { NavFile, Usage } from './model.js';

/** Methods and fields are reached through a receiver, except where members are in scope bare. */
export function bareVisible(definition: SymbolDefinition, family: LanguageFamily): boolean {
  return membersVisibleBare(family) || !MEMBER_KINDS.has(definition.kind);
}

/**
 * A JavaScript object's members go wherever the object goes: reached through a receiver, a member
 * is no less visible for its object not being exported (koa's `module.exports = { onerror() {} }`).
 */
export function reachedThroughObject(file: NavFile, definition: SymbolDefinition, usage: Usage): boolean {
  return usage.receiver !== undefined && familyOf(file.symbols.language) === 'js' && isMember(file, definition) && !definition.name.startsWith('#');
}

/** Languages of one family share names (C and C++, JavaScript and TypeScript); a language no family holds may mean anything. */
export function sameFamily(a: LanguageFamily, b: LanguageFamily): boolean {
  return a === b || a === 'other' || b === 'other';
}

export function isMember(file: NavFile, definition: SymbolDefinition): boolean {
  return isMemberDefinition(file.symbols.definitions, definition);
}

/** Top-level names, and members when the usage has a receiver; never another function's locals. */
export function reachableFromOutside(file: NavFile, definition: SymbolDefinition, usage: Usage): boolean {
  if (definition.parent === -1) return usage.receiver !== undefined || bareVisible(definition, familyOf(file.symbols.language));
  const parent = file.symbols.definitions[definition.parent];
  return usage.receiver !== undefined && parent !== undefined && isContainer(parent);
}
