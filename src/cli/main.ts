/**
 * The `quarry` entry point: picks the subcommand, prints help, and turns every error into one
 * line on stderr and an exit code (2 for usage errors, 1 for the rest). Runs no command logic.
 */

import { debugEnabled } from '../config.js';
import { errorMessage, isQuarryError } from '../errors.js';
import { formatTable, usageError, type CliIO, type Command } from './command.js';
import { COMMANDS } from './commands.js';

const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

const processIO: CliIO = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};

function helpText(commands: readonly Command[]): string[] {
  return [
    'usage: quarry <command> [arguments] [--data DIR]',
    '',
    'commands:',
    ...formatTable(commands.map((c) => [c.name, c.summary])).map((line) => `  ${line}`),
    '',
    "Run 'quarry <command> --help' for a command's usage.",
  ];
}

function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  const flags = end === -1 ? args : args.slice(0, end);
  return flags.includes('--help') || flags.includes('-h');
}

async function dispatch(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    helpText(COMMANDS).forEach((line) => io.err(line));
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    helpText(COMMANDS).forEach((line) => io.out(line));
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) throw usageError(`unknown command "${name}" (see quarry --help)`);
  if (wantsHelp(rest)) {
    io.out(command.usage);
    return 0;
  }
  return command.run(rest, io);
}

/** Runs `quarry` with `argv` (arguments after the program name) and returns the exit code. */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (err) {
    io.err(`quarry: ${errorMessage(err)}`);
    if (debugEnabled() && err instanceof Error && err.stack !== undefined) io.err(err.stack);
    return isQuarryError(err, 'USAGE') ? EXIT_USAGE : EXIT_FAILURE;
  }
}
