/**
 * Every `quarry` subcommand, in the order `quarry --help` lists them. Add new commands here.
 */

import type { Command } from './command.js';
import { apiCommand } from './api-command.js';
import { indexCommand } from './index-command.js';
import { reposCommand } from './repos.js';
import { searchCommand } from './search-command.js';

export const COMMANDS: Command[] = [reposCommand, indexCommand, searchCommand, apiCommand];
