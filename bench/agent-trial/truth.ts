/**
 * The truth the trial's answers are checked against: git run on the same mirrors the server
 * indexed, at run time, and the commit each repository was indexed at. Reads the mirrors only.
 */
import { join } from 'node:path';
import { QUARRY_BIN } from '../paths.js';
import { collect } from '../tools/process.js';

export const PROJECTS = {
  requests: { repo: 'github.com/psf/requests', mirror: 'requests.git' },
  koa: { repo: 'github.com/koajs/koa', mirror: 'koa.git' },
  gin: { repo: 'github.com/gin-gonic/gin', mirror: 'gin.git' },
  ripgrep: { repo: 'github.com/BurntSushi/ripgrep', mirror: 'ripgrep.git' },
} as const;

export type Project = keyof typeof PROJECTS;

export class Truth {
  private constructor(private readonly mirrors: string, private readonly indexed: ReadonlyMap<string, string>) {}

  /** `workDir/mirrors` holds the mirrors bench/load/instance.ts cloned; the data dir says what was indexed. */
  static async open(workDir: string, dataDir: string): Promise<Truth> {
    const listed = await collect(process.execPath, [QUARRY_BIN, 'repos', 'list', '--json', '--data', dataDir]);
    const repos = JSON.parse(listed.stdout.toString('utf8')) as { name: string; index?: { commit: string } }[];
    const indexed = new Map(repos.filter((r) => r.index).map((r) => [r.name, r.index!.commit]));
    return new Truth(join(workDir, 'mirrors'), indexed);
  }

  repo(project: Project): string {
    return PROJECTS[project].repo;
  }

  /** The commit the server indexed (its default branch when the trial started). */
  head(project: Project): string {
    const commit = this.indexed.get(this.repo(project));
    if (commit === undefined) throw new Error(`${this.repo(project)} was not indexed`);
    return commit;
  }

  /** git's output in the project's mirror; exit code 1 (nothing matched, for grep) is an empty answer. */
  async git(project: Project, args: readonly string[]): Promise<string> {
    const run = await collect('git', ['-C', join(this.mirrors, PROJECTS[project].mirror), ...args], { okCodes: [0, 1] });
    return run.stdout.toString('utf8');
  }

  async lines(project: Project, args: readonly string[]): Promise<string[]> {
    return (await this.git(project, args)).split('\n').filter((l) => l !== '');
  }

  /** `git grep -n` at the indexed commit: path, line and text of each matching line. */
  async grep(project: Project, args: readonly string[], pathspecs: readonly string[] = []): Promise<{ path: string; line: number; text: string }[]> {
    const head = this.head(project);
    return (await this.lines(project, ['grep', '-n', '-I', ...args, head, '--', ...pathspecs])).map((l) => {
      const m = /^[0-9a-f]{40}:([^:]+):(\d+):(.*)$/.exec(l);
      if (!m) throw new Error(`unexpected git grep line: ${l}`);
      return { path: m[1]!, line: Number(m[2]), text: m[3]! };
    });
  }

  /** The file's lines at `revision` (default: the indexed commit), 1-based as answers number them. */
  async fileLines(project: Project, path: string, revision = this.head(project)): Promise<string[]> {
    return (await this.git(project, ['show', `${revision}:${path}`])).split('\n');
  }
}
