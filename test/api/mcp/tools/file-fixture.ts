/**
 * Indexed repositories for the file tools' tests: `github.com/acme/app` with text, binary, empty,
 * large and long-line files, a wide directory and a `feature` branch; `lib`; and an unreadable `secret`.
 */
import { BINARY_CONTENT, commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../../../git/fixtures.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../../e2e/engine-fixture.js';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { mcpServices } from '../../../../src/server/mcp.js';

export const APP = 'github.com/acme/app';
export const LIB = 'github.com/acme/lib';
export const SECRET = 'github.com/acme/secret';
export const canRead = (repo: string): boolean => repo !== SECRET;

export const ROUTER = 'export class Router {\n  route(path: string): string {\n    return path;\n  }\n}\n';
/** 3000 lines of 61 bytes: over the 128 KB whole-file limit. */
export const BIG_LINES = Array.from({ length: 3000 }, (_, i) => `line ${String(i + 1).padStart(4, '0')} ${'x'.repeat(50)}`);
export const LONG_LINE = 'y'.repeat(50_000);
export const WIDE_FILES = 1200;

export interface FileToolFixture {
  readonly engine: EngineFixture;
  readonly services: McpServices;
  /** `main`'s head, the indexed commit. */
  readonly head: string;
  readonly feature: string;
  close(): Promise<void>;
}

export async function createFileToolFixture(options: { wide?: boolean } = {}): Promise<FileToolFixture> {
  const engine = await createEngineFixture({ pool: 'in-thread' });
  const sources = makeTempDir('quarry-mcp-files');
  const app = initRepo(`${sources}/app`);
  const wide: Record<string, string> = {};
  if (options.wide) for (let i = 0; i < WIDE_FILES; i++) wide[`wide/f${String(i).padStart(4, '0')}.txt`] = `${i}\n`;
  writeFiles(app, {
    'README.md': '# app\nUses the Router.\n',
    'src/router.ts': ROUTER,
    'src/lib/util.ts': 'export const util = 2;\n',
    'src/Alpha/a.ts': 'a\n',
    'src/zeta/z.ts': 'z\n',
    'src/Checkpoints.java': 'class Checkpoints {}\n',
    'src/CheckpointType.java': 'enum CheckpointType {}\n',
    'no-newline.txt': 'one\ntwo',
    'empty.txt': '',
    'logo.bin': BINARY_CONTENT,
    'big.txt': `${BIG_LINES.join('\n')}\n`,
    'long-line.txt': `short\n${LONG_LINE}\nafter\n`,
    ...wide,
  });
  commitAll(app, 'initial');
  git(app, 'checkout', '--quiet', '-b', 'feature');
  writeFiles(app, { 'README.md': '# app on a feature branch\n' });
  const feature = commitAll(app, 'feature');
  git(app, 'checkout', '--quiet', 'main');
  const head = git(app, 'rev-parse', 'HEAD');
  await addAndIndex(engine, APP, app);
  for (const [name, files] of [[LIB, { 'lib.go': 'package lib\n' }], [SECRET, { 'secret.ts': 'export const secret = 1;\n' }]] as const) {
    const dir = initRepo(`${sources}/${name.split('/').at(-1)}`);
    writeFiles(dir, files);
    commitAll(dir, 'initial');
    await addAndIndex(engine, name, dir);
  }
  const services = mcpServices(engine.engine);
  return {
    engine, services, head, feature,
    async close() {
      await engine.engine.close();
      removeDir(engine.dataDir);
      removeDir(sources);
    },
  };
}
