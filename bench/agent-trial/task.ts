/**
 * What a trial task is: a statement an agent is given, in one of the four projects, and the steps
 * it takes (through a TaskRun) ending in a check of the final answer against git. Types only.
 */
import type { TaskRun } from './session.js';
import type { Project, Truth } from './truth.js';

export type TaskKind = 'find' | 'read' | 'navigate' | 'history';

export interface Task {
  readonly id: string;
  /** The project the statement is about; 'all' for a question across the indexed repositories. */
  readonly project: Project | 'all';
  readonly kind: TaskKind;
  /** What the agent is asked, in words; the only source of arguments besides earlier answers. */
  readonly statement: string;
  /** Runs the steps and checks the final answer; returns what was checked, in one sentence. */
  run(t: TaskRun, truth: Truth): Promise<string>;
}
