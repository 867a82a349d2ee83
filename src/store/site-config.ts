/**
 * Site configuration: a JSON-with-comments document kept with every revision (ids 1, 2, ...).
 * Writes name the revision they edit, so a stale edit is refused instead of lost.
 */

import { createError } from '../errors.js';
import { parseJsonc } from './jsonc.js';
import type { SiteConfigRevision, Store } from './records.js';
import { effectiveSiteConfig, type SiteConfiguration } from './site-config-schema.js';
import { bumpGeneration } from './generation.js';

export type { SiteConfiguration } from './site-config-schema.js';

export interface SiteConfig {
  /** 0 before the first write. */
  readonly id: number;
  readonly contents: string;
  readonly effective: SiteConfiguration;
}

export const INITIAL_SITE_CONFIG = `// Quarry site configuration: JSON with comments. See \`quarry config --help\` for the settings.
{
}
`;

// Parsing on every request would be waste: one effective config per store, valid for one id.
const cache = new WeakMap<Store, SiteConfig>();

function latestRevision(store: Store): SiteConfigRevision | undefined {
  for (const { value } of store.siteConfig.getRange({ reverse: true, limit: 1 })) return value;
  return undefined;
}

/** Parses and validates `contents`; CONFIG_INVALID with a line:column or the offending key. */
export function parseSiteConfig(contents: string): SiteConfiguration {
  return effectiveSiteConfig(parseJsonc(contents));
}

export function getSiteConfig(store: Store): SiteConfig {
  const latest = latestRevision(store) ?? { id: 0, contents: INITIAL_SITE_CONFIG, createdAt: '' };
  const cached = cache.get(store);
  if (cached !== undefined && cached.id === latest.id) return cached;
  const config: SiteConfig = { id: latest.id, contents: latest.contents, effective: parseSiteConfig(latest.contents) };
  cache.set(store, config);
  return config;
}

export function getSiteConfigRevision(store: Store, id: number): SiteConfigRevision | undefined {
  return store.siteConfig.get(id);
}

/** Stores `contents` as the revision after `lastId`; refuses stale ids and invalid documents. */
export function updateSiteConfig(store: Store, lastId: number, contents: string): number {
  parseSiteConfig(contents);
  return store.root.transactionSync(() => {
    const currentId = latestRevision(store)?.id ?? 0;
    if (lastId !== currentId) {
      throw createError('CONFIG_STALE',
        `the site configuration changed since revision ${lastId} was read (the current revision is ${currentId}); reload it and apply the edit again`,
        { lastId, currentId });
    }
    const id = currentId + 1;
    store.siteConfig.putSync(id, { id, contents, createdAt: new Date().toISOString() });
    bumpGeneration(store);
    return id;
  });
}
