/**
 * A GraphQL handler over the real services the server wires: an LMDB index of real git
 * repositories (one restricted to admins), the git-backed repository browser, and the instance
 * store's accounts, repository permissions and site configuration.
 */
import { ANONYMOUS, type Identity } from '../../../src/auth/principal.js';
import { withRepoAccess } from '../../../src/auth/repo-access.js';
import { DEFAULT_COST_LIMITS, type CostLimits } from '../../../src/api/graphql/cost.js';
import { createGraphQLHandler, type GraphQLHandler } from '../../../src/api/graphql/handler.js';
import type { AccountService, GraphQLServices, RequestContext } from '../../../src/api/graphql/services.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../../git/fixtures.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../e2e/engine-fixture.js';
import { createAccountService, createConfigService } from '../../../src/store/account-service.js';
import { createOAuthApplicationService } from '../../../src/auth/oauth/applications.js';
import { createRepoBrowser } from '../../../src/repos/browser.js';
import { restrictRepo } from '../../../src/store/repo-permissions.js';
import type { Store } from '../../../src/store/records.js';

export const SECRET_REPO = 'github.com/acme/secret';

const REPOS: Record<string, Record<string, string>> = {
  'github.com/acme/app': {
    'src/router.ts': 'export class Router {\n  route(path: string): string {\n    return path;\n  }\n}\n',
    'README.md': '# app\nUses the Router.\n',
    'docs/guide/intro.md': 'Intro\n',
  },
  'github.com/acme/lib': { 'lib.go': 'package lib\n\n// NewRouter makes a Router.\nfunc NewRouter() {}\n' },
  'github.com/acme/tools': { 'tool.py': 'print("tools")\n' },
  [SECRET_REPO]: { 'secret.ts': 'export const Router = "secret";\n' },
};

export interface GraphQLFixture {
  readonly engine: EngineFixture;
  readonly services: GraphQLServices;
  readonly accounts: AccountService;
  readonly admin: Identity;
  readonly alice: Identity;
  limits: CostLimits;
  handler: GraphQLHandler;
  post(body: unknown, caller?: Identity): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

export function principalOf(user: { id: number; username: string; siteAdmin: boolean }, scopes: string[] = ['user:all']): Identity {
  return {
    ...ANONYMOUS, userId: user.id, username: user.username, siteAdmin: user.siteAdmin, scopes, tokenId: 1,
    roles: user.siteAdmin ? ['USER', 'SITE_ADMINISTRATOR'] : ['USER'],
  };
}

let fixtureStore: Store | null = null;

/** The request context of a caller its door admitted: the principal carries the store's repository access. */
export function contextFor(caller: Identity): RequestContext {
  return { principal: withRepoAccess(fixtureStore!, caller), signal: new AbortController().signal };
}

/** `repositories: false` adds none (no git, no indexing): for tests of accounts and configuration alone. */
export async function createGraphQLFixture(options: { repositories?: boolean } = {}): Promise<GraphQLFixture> {
  const engine = await createEngineFixture({ pool: 'in-thread' });
  const store = engine.engine.store;
  fixtureStore = store;
  const sources = makeTempDir('quarry-gql-src');
  for (const [name, files] of Object.entries(options.repositories === false ? {} : REPOS)) {
    const dir = initRepo(`${sources}/${name.split('/').at(-1)}`);
    writeFiles(dir, files);
    commitAll(dir, `initial ${name}\n\nbody line`);
    await addAndIndex(engine, name, dir);
    if (name === SECRET_REPO) restrictRepo(store, SECRET_REPO, { users: [], roles: [] });
  }
  const accounts = createAccountService(store);
  const adminUser = accounts.createUser({ username: 'admin', email: 'admin@example.com' });
  accounts.setSiteAdmin(adminUser.id, true);
  const aliceUser = accounts.createUser({ username: 'alice', email: 'alice@example.com' });
  const services: GraphQLServices = {
    search: engine.engine.search,
    repos: createRepoBrowser({ dataDir: engine.dataDir, store }),
    accounts,
    config: createConfigService(store),
    site: { siteID: 'test-site', buildVersion: '0.1.0', productVersion: '0.1.0' },
    history: engine.engine.history,
    oauthApps: createOAuthApplicationService(store),
  };
  const fixture: GraphQLFixture = {
    engine, services, accounts,
    admin: principalOf({ ...adminUser, siteAdmin: true }),
    alice: principalOf(aliceUser),
    limits: DEFAULT_COST_LIMITS,
    handler: undefined as unknown as GraphQLHandler,
    async post(body, caller = fixture.alice) {
      const response = await fixture.handler({ body }, contextFor(caller));
      return { status: response.status, json: JSON.parse(response.body) };
    },
    async close() {
      await engine.engine.close();
      removeDir(engine.dataDir);
      removeDir(sources);
    },
  };
  fixture.handler = createGraphQLHandler(services, { limits: () => fixture.limits });
  return fixture;
}
