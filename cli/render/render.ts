/**
 * render: IR → the project's files, in their final layout. One view model per file kind, built here so the
 * templates stay free of logic; every piece of manifest text goes through cli/render/escape.ts.
 */
import type { IR } from '../normalize/ir.js';
import type { OutputFile } from '../plan/plan.js';
import { renderTemplate } from './handlebars.js';
import { renderTypes } from './types.js';
import {
  contentView,
  handlersView,
  headerLines,
  httpView,
  packageData,
  projectView,
  schemasView,
  serverView,
} from './views.js';
import { promptStub, resourceStub, templateStub, toolStub, toolTestStub } from './stubs.js';
import { contractTestView } from './contract-view.js';
import { renderContracts } from './contracts.js';
import { readmeView } from './readme-view.js';
import { printJson } from './literal.js';
import { RUNTIME_RANGE, type toolchainSpecs } from '../plan/dependencies.js';

/**
 * The project's files, each rendered when it is pulled, in mcpgen's own fixed layout: the
 * templates' text, and the manifest's data printed by cli/render/literal.ts.
 *
 * `kept` says which user-owned files exist already: they are never rewritten, so they are listed
 * (the plan needs their paths) but not rendered — a regenerate of 1000 tools skips 2000 stubs.
 */
export function* renderFiles(
  ir: IR,
  kept: (path: string) => boolean = () => false,
  specs: ReturnType<typeof toolchainSpecs> = { runtime: RUNTIME_RANGE, mcpgen: RUNTIME_RANGE },
): Generator<OutputFile> {
  const header = headerLines(ir);
  const gen = (path: string, view: object = {}, template = path): OutputFile => ({
    path,
    owner: 'generated',
    content: renderTemplate(template, { header, ...view }),
  });
  // A user-owned file that exists is kept: listed, not rendered.
  const own = (path: string, content: () => string): OutputFile => ({
    path,
    owner: 'user',
    content: kept(path) ? '' : content(),
  });
  const user = (path: string, template: string, view: () => object): OutputFile =>
    own(path, () => renderTemplate(template, view()));
  yield { path: 'src/generated/types.ts', owner: 'generated', content: `${header}\n\n${renderTypes(ir)}` };
  const server = serverView(ir);
  const contract = contractTestView(ir);
  // jsonSchemas is exported for those who read it: prompt arguments (server.ts), the contract test.
  const readsSchemas = server.schemaImports.includes('jsonSchemas') || contract.referencesSchemas;
  const schemas = { ...schemasView(ir), exportJsonSchemas: readsSchemas };
  // Nothing to declare (no inputs, outputs or arguments): nothing imports schemas.ts.
  if (schemas.jsonSchemas.length) yield gen('src/generated/schemas.ts', schemas);
  // Static resource contents and declarative prompt messages: only a manifest with some has it.
  const content = contentView(ir);
  if (content.resources.length || content.prompts.length) yield gen('src/generated/content.ts', content);
  // The handler types: none without an entry that has a handler.
  const handlers = handlersView(ir);
  if (handlers.tools.length || handlers.resources.length || handlers.templates.length || handlers.prompts.length)
    yield gen('src/generated/handlers.ts', handlers);
  yield gen('src/generated/server.ts', server);
  // Entry code holds only what the manifest implies: HTTP's settings (stdio has none).
  if (ir.transports.http) yield gen('src/generated/http.ts', httpView(ir));
  yield { path: 'src/generated/contracts.json', owner: 'generated', content: renderContracts(ir, header) };
  yield gen('test/generated/contract.test.ts', contract);
  yield user('src/main.ts', 'src/main.ts', () => projectView(ir));
  yield user('src/hooks.ts', 'src/hooks.ts', () => ({}));
  yield own('package.json', () => printJson(packageData(ir, specs)));
  yield user('tsconfig.json', 'project/tsconfig.json', () => ({}));
  yield user('.gitignore', 'project/gitignore', () => ({}));
  // Generated files keep mcpgen's layout: the project's formatter and diffs leave them alone.
  yield user('.gitattributes', 'project/gitattributes', () => ({}));
  yield user('.prettierignore', 'project/prettierignore', () => ({}));
  yield user('README.md', 'project/README.md', () => readmeView(ir));
  // What a team sets up next, as a start: CI, and a container for a server that has HTTP to serve.
  yield user('.github/workflows/mcp.yml', 'project/workflow.yml', () => ({}));
  if (ir.transports.http) {
    yield user('Dockerfile', 'project/Dockerfile', () => projectView(ir));
    yield user('.dockerignore', 'project/dockerignore', () => ({}));
  }

  for (const t of ir.tools) {
    // An HTTP-backed tool without `handler: true` has none: the runtime answers.
    if (!t.handlerPath) continue;
    yield user(`src/handlers/${t.handlerPath}.ts`, 'src/handlers/tool.ts', () => toolStub(t));
    yield user(`test/handlers/${t.handlerPath}.test.ts`, 'test/handlers/tool.test.ts', () => toolTestStub(t));
  }
  for (const r of ir.resources) {
    if (r.handlerPath)
      yield user(`src/handlers/${r.handlerPath}.ts`, 'src/handlers/resource.ts', () => resourceStub(r));
  }
  for (const t of ir.templates)
    yield user(`src/handlers/${t.handlerPath}.ts`, 'src/handlers/template.ts', () => templateStub(t));
  for (const p of ir.prompts) {
    if (p.handlerPath) yield user(`src/handlers/${p.handlerPath}.ts`, 'src/handlers/prompt.ts', () => promptStub(p));
  }
}
