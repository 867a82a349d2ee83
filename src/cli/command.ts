/**
 * The CLI's small framework: the Command shape every subcommand implements, flag parsing and
 * table output. Knows no particular command; prints nothing itself.
 */

import { createError, type QuarryError } from '../errors.js';

export interface CliIO {
  out(line: string): void;
  err(line: string): void;
}

export interface Command {
  readonly name: string;
  /** One line for `quarry --help`. */
  readonly summary: string;
  /** Full text for `quarry <name> --help`. */
  readonly usage: string;
  /** Returns the exit code; throws QuarryError for anything the user should be told. */
  run(args: string[], io: CliIO): Promise<number>;
}

export type FlagKind = 'string' | 'boolean';
export type FlagSpec = Readonly<Record<string, FlagKind>>;
export type FlagValues<S extends FlagSpec> = { [K in keyof S]?: S[K] extends 'string' ? string : boolean };

export interface ParsedArgs<S extends FlagSpec> {
  readonly flags: FlagValues<S>;
  readonly positionals: string[];
  /** `--help` or `-h` appeared. */
  readonly help: boolean;
}

export function usageError(message: string): QuarryError {
  return createError('USAGE', message);
}

/**
 * Splits `--name value`, `--name=value`, boolean `--name`, `--help`/`-h` and positionals; flags may
 * appear anywhere, and everything after `--` is positional. Unknown flags are USAGE errors.
 */
export function parseFlags<S extends FlagSpec>(args: readonly string[], spec: S): ParsedArgs<S> {
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? arg.slice(2, eq === -1 ? undefined : eq) : '';
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (kind === undefined) throw usageError(`unknown flag ${arg.slice(0, eq === -1 ? undefined : eq)}`);
    if (kind === 'boolean') {
      if (eq !== -1) throw usageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) throw usageError(`--${name} needs a value`);
    flags[name] = value;
  }
  return { flags: flags as FlagValues<S>, positionals, help };
}

/** Left-aligned columns two spaces apart; the first row is the header. */
export function formatTable(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}
