/**
 * Every `quarry` subcommand, in the order `quarry --help` lists them. Add new commands here.
 */

import type { Command } from './command.js';
import { apiCommand } from './api-command.js';
import { clusterCommand } from './cluster-command.js';
import { indexCommand } from './index-command.js';
import { loginCommand } from './login-command.js';
import { oauthAppsCommand } from './oauth-apps-command.js';
import { configCommand } from './config-command.js';
import { withRepoPermissions } from './repo-permissions-command.js';
import { reposCommand } from './repos.js';
import { rolesCommand } from './roles-command.js';
import { searchCommand } from './search-command.js';
import { serveCommand } from './serve-command.js';
import { tokensCommand } from './tokens-command.js';
import { usersCommand } from './users-command.js';

export const COMMANDS: Command[] = [withRepoPermissions(reposCommand), indexCommand, searchCommand, serveCommand, clusterCommand, loginCommand, apiCommand, usersCommand, tokensCommand, rolesCommand, oauthAppsCommand, configCommand];
