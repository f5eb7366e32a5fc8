/**
 * The four kinds of entry `mcpgen rename` handles: where each sits in the manifest, where its
 * handler lives, and how its stub names it (render/stubs.ts and the templates in src/handlers/).
 */

export type RenameKind = 'tool' | 'resource' | 'template' | 'prompt';

export interface KindInfo {
  /** The manifest section keyed by entry name. */
  section: 'tools' | 'resources' | 'resourceTemplates' | 'prompts';
  /** The folder under src/handlers/ (and test/handlers/). */
  dir: string;
  /** The generated handlers type a stub's signature indexes by the entry's name. */
  handlersType: string;
  /** How the stub's doc comment starts: `Tool \`name\``. */
  docLabel: string;
}

export const KINDS: Record<RenameKind, KindInfo> = {
  tool: { section: 'tools', dir: 'tools', handlersType: 'ToolHandlers', docLabel: 'Tool' },
  resource: {
    section: 'resources',
    dir: 'resources',
    handlersType: 'ResourceHandlers',
    docLabel: 'Resource',
  },
  template: {
    section: 'resourceTemplates',
    dir: 'templates',
    handlersType: 'TemplateHandlers',
    docLabel: 'Resource template',
  },
  prompt: { section: 'prompts', dir: 'prompts', handlersType: 'PromptHandlers', docLabel: 'Prompt' },
};

export function isRenameKind(s: string): s is RenameKind {
  return Object.hasOwn(KINDS, s);
}

/** The kind whose contracts.json entries are keyed `<kind> <name>` (render/contracts.ts uses the same words). */
export const KIND_NAMES = Object.keys(KINDS) as RenameKind[];
