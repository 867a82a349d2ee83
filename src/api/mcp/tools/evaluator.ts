/**
 * The `evaluator` tool (reference §1.4): a Lua script run in the sandbox pool over the search
 * tools' results, as the caller. The description teaches the whole module API in a few lines; the
 * engine is sandbox/script-runner.ts, the module calls evaluator-host.ts.
 */
import { objectSchema } from '../arguments.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { evaluatorAnswer } from './evaluator-answer.js';
import { scriptHost } from './evaluator-host.js';

const MAX_SCRIPT_CHARS = 100_000;

const DESCRIPTION = `Runs a sandboxed Lua 5.3 script over search results (no network or files). print() writes the answer; returned values are printed, tables as JSON.
Modules return lists of rows (q: keyword_search syntax; lines 1-based):
search.keyword(q), search.nls(q): {repo,path,line,text,language}
search.symbols(q): {repo,path,line,name,kind}
search.commits{repos=,messageTerms=,authors=,files=,after=,count=}: {repo,commit,author,date,subject,files}
search.diffs{repos=,pattern=,added=,removed=}: {repo,commit,author,path,kind,line,text}
source.read(repo,path[,{startLine=,endLine=}]) -> string; source.list(repo[,path][,{recursive=true}]): {path,dir,language}
nav.definition{repo=,path=,symbol=} -> {path,line,text} or nil; nav.references{repo=,path=,symbol=}: {repo,path,line,text}
json.encode/decode; text.format_table(rows,columns); output.file(name,content) attaches a file.
Cut lists have .truncated; searches, reads, time and memory are limited per run.
Example, functions per file:
local n, rows = {}, {}
for _, s in ipairs(search.symbols("file:^src/ type:symbol")) do
  if s.kind == "function" then n[s.path] = (n[s.path] or 0) + 1 end
end
for p, c in pairs(n) do rows[#rows+1] = {path=p, functions=c} end
print(text.format_table(rows, {"path", "functions"}))`;

export const evaluatorTool: ToolDefinition<{ script: string }> = {
  name: 'evaluator',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    script: { type: 'string', description: 'Lua 5.3 source.' },
  }, ['script']),
  async run(args, ctx) {
    const runner = ctx.services.evaluator;
    if (runner === undefined) throw new ToolError('The evaluator is not available on this server. Use keyword_search and the other tools instead.');
    if (args.script.trim() === '') throw new ToolError('The script is empty: pass Lua code that calls the modules and prints a result, e.g. print(#search.keyword("func main lang:go")).');
    if (args.script.length > MAX_SCRIPT_CHARS) throw new ToolError(`The script is ${args.script.length.toLocaleString('en-US')} characters; the most is ${MAX_SCRIPT_CHARS.toLocaleString('en-US')}. Compute more in the script and send less code.`);
    const host = scriptHost(ctx, ctx.log ?? (() => {}));
    const outcome = await runner.run({ script: args.script, signal: ctx.signal, call: host.call });
    return evaluatorAnswer(outcome, host.truncated, ctx.maxAnswerTokens);
  },
};
