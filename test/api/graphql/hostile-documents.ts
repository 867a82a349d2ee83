/**
 * Builders of the hostile GraphQL documents from issue 12 and their families, valid against
 * Quarry's schema where that matters (so they pass validation and reach the later steps).
 */

/** `query{currentUser{...F<depth>}}`, F0 selecting username and each Fi spreading F(i-1) `fanOut` times. */
export function fragmentBomb(depth: number, fanOut: number, name = 'F'): string {
  const fragments = [`fragment ${name}0 on User{username}`];
  for (let i = 1; i <= depth; i++) fragments.push(`fragment ${name}${i} on User{${Array.from({ length: fanOut }, () => `...${name}${i - 1}`).join(' ')}}`);
  return `query{currentUser{...${name}${depth}}}${fragments.join('')}`;
}

export function duplicateFlood(fields: number): string {
  return `{ currentUser { ${'username '.repeat(fields)}} }`;
}

export function aliasFlood(aliases: number): string {
  return `{ ${Array.from({ length: aliases }, (_, i) => `a${i}: currentUser { username }`).join(' ')} }`;
}

export function aliasedSearches(searches: number, query = 'count:all (Route|route)+r'): string {
  return `{ ${Array.from({ length: searches }, (_, i) => `s${i}: search(query: ${JSON.stringify(query)}, version: V3, patternType: regexp) { results { matchCount } }`).join(' ')} }`;
}

/** A binary tree of distinct fields through fragments: 2^levels leaves, no duplicates, no aliases. */
export function fragmentTree(levels: number): string {
  const fragments = ['fragment R0 on Repository { name }'];
  for (let i = 1; i <= levels; i++) fragments.push(`fragment R${i} on Repository { commit(rev: "HEAD") { repository { ...R${i - 1} } } defaultBranch { repository { ...R${i - 1} } } }`);
  return `{ repository(name: "github.com/acme/app") { ...R${levels} } } ${fragments.join(' ')}`;
}
