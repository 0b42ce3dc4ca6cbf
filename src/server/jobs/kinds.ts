import type { JobDefinition } from './queue';

/**
 * The job kinds this app runs, each registered by the feature that owns it (media its previews,
 * the demo its demo-previews job): the queue itself knows no feature
 * (docs/decisions/353-a-job-queue-of-its-own.md).
 */
export class JobKinds {
  private readonly byKind = new Map<string, JobDefinition>();

  register(...definitions: JobDefinition[]): void {
    for (const definition of definitions) {
      // Two handlers for one kind would run whichever came last: a programming error, caught at start.
      if (this.byKind.has(definition.kind)) throw new Error(`The job kind ${definition.kind} is registered twice.`);
      this.byKind.set(definition.kind, definition);
    }
  }

  all(): JobDefinition[] {
    return [...this.byKind.values()];
  }
}
