#!/usr/bin/env node
// The `quarry` command: runs the compiled CLI entry point.
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
