/**
 * The views of the runtime modules (runtime.ts and the parts of it a manifest may not need:
 * tools.ts, resources.ts, prompts.ts, completions.ts, pagination.ts). Each part is emitted when
 * server.ts uses it, so a project carries no helper it never calls.
 */

/** What server.ts takes from the runtime modules, and what else decides their parts. */
export interface RuntimeUses {
  /** The names server.ts imports from the runtime modules (serverView's `uses`). */
  server: ReadonlySet<string>;
  tasks: boolean;
  /** schemas.ts wraps validators in `ownProperties`. */
  schemasOwnProperties: boolean;
}

/** `names` whose condition holds, in order: an import list. */
const pick = (entries: [string, boolean][]) => entries.filter(([, on]) => on).map(([name]) => name);

export function runtimeView(uses: RuntimeUses) {
  const s = uses.server;
  return {
    subscriptions: s.has('installSubscriptions'),
    ownNames: s.has('ownRegistries'),
    named: s.has('Named'),
    ownProperties: s.has('ownProperties') || uses.schemasOwnProperties,
    structuredTools: s.has('structuredTool'),
    handlerContext: s.has('listResources'),
    register: s.has('register'),
    exportAnswer: s.has('readResource') || s.has('getPrompt') || s.has('describedPrompt'),
    exportIsPromiseLike: s.has('describedPrompt'),
    tasks: uses.tasks,
  };
}

export function toolsView(uses: RuntimeUses) {
  return { structured: uses.server.has('structuredTool'), content: uses.server.has('contentTool'), tasks: uses.tasks };
}

export function resourcesView(uses: RuntimeUses) {
  const s = uses.server;
  const readResource = s.has('readResource');
  const readTemplate = s.has('readTemplate');
  const listResources = s.has('listResources');
  const reads = readResource || readTemplate;
  return {
    readResource,
    readTemplate,
    listResources,
    reads,
    sdkImports: pick([
      ['type Annotations', true],
      ['type InputRequiredResult', readTemplate],
      ['type ListResourcesResult', listResources],
      ['type McpServer', true],
      ['ProtocolError', readTemplate],
      ['ProtocolErrorCode', readTemplate],
      ['type ReadResourceResult', reads],
      ['type ServerContext', reads || listResources],
      ['type StandardSchemaWithJSON', readTemplate],
      ['type Variables', readTemplate],
    ]),
    handlerImports: pick([
      ['ResourceBody', reads],
      ['ResourceHandler', readResource],
      ['TemplateLister', listResources],
      ['TemplateReader', readTemplate],
    ]),
    runtimeImports: pick([
      ['type Answer', readResource],
      ['handlerContext', listResources],
      ['invoke', reads],
      ['type Loader', reads || listResources],
      ['notFound', reads],
      ['type Open', true],
      ['type OpenIcons', true],
    ]),
  };
}

export function promptsView(uses: RuntimeUses) {
  const s = uses.server;
  const promptArguments = s.has('promptArguments');
  const renderPrompt = s.has('renderPrompt');
  const getPrompt = s.has('getPrompt');
  const describedPrompt = s.has('describedPrompt');
  const showDeclaredArguments = s.has('showDeclaredArguments');
  return {
    promptArguments,
    renderPrompt,
    getPrompt,
    describedPrompt,
    showDeclaredArguments,
    sdkImports: pick([
      ['completable', promptArguments],
      ['type CompleteCallback', promptArguments],
      ['fromJsonSchema', promptArguments],
      ['type GetPromptResult', renderPrompt || getPrompt || describedPrompt],
      ['type InputRequiredResult', describedPrompt],
      ['isInputRequiredResult', describedPrompt],
      ['type JsonSchemaType', promptArguments],
      ['type McpServer', getPrompt || showDeclaredArguments],
      ['type Prompt', true],
      ['type PromptMessage', renderPrompt || getPrompt],
      ['type ServerContext', getPrompt],
      ['type StandardSchemaV1', promptArguments],
      ['type StandardSchemaWithJSON', promptArguments],
    ]),
    runtimeImports: pick([
      ['type Answer', getPrompt || describedPrompt],
      ['invoke', getPrompt],
      ['isPromiseLike', describedPrompt],
      ['type Loader', getPrompt],
      ['type OpenIcons', true],
    ]),
  };
}
