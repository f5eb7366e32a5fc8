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
  oauthView,
  packageData,
  projectView,
  schemasView,
  serverView,
  sseView,
} from './views.js';
import { promptStub, resourceStub, templateStub, toolStub, toolTestStub } from './stubs.js';
import { contractTestView } from './contract-view.js';
import { pathsView } from './paths-view.js';
import { renderContracts } from './contracts.js';
import { readmeView } from './readme-view.js';
import { printJson } from '../format/literal.js';
import { placeLiterals } from './place-literals.js';

/** Generated files only some servers have: each brings its own runtime packages (plan/dependencies.ts). */
function optionalFiles(ir: IR): { path: string; view: () => object }[] {
  const http = ir.transports.http;
  return [
    ...(http?.oauth ? [{ path: 'src/generated/oauth.ts', view: () => oauthView(ir) }] : []),
    ...(http?.sse ? [{ path: 'src/generated/sse.ts', view: () => sseView(ir) }] : []),
  ];
}

/** A template written in prettier's final layout, its `{{literal}}` values printed in place. */
function renderPrinted(template: string, view: object): string {
  const literals: unknown[] = [];
  return placeLiterals(renderTemplate(template, { ...view, __literals: literals }), literals);
}

/**
 * The project's files, each rendered when it is pulled, in its final layout: templates emit
 * prettier's layout for every variant, data goes through the literal printer, width-dependent code
 * through prettier's doc builders (test/print-final*.test.ts hold every file to prettier).
 *
 * `kept` says which user-owned files exist already: they are never rewritten, so they are listed
 * (the plan needs their paths) but not rendered — a regenerate of 1000 tools skips 2000 stubs.
 */
export function* renderFiles(ir: IR, kept: (path: string) => boolean = () => false): Generator<OutputFile> {
  const header = headerLines(ir);
  const gen = (path: string, view: object = {}, template = path): OutputFile => ({ path, owner: 'generated', content: renderPrinted(template, { header, ...view }) });
  // A user-owned file that exists is kept: listed, not rendered.
  const own = (path: string, content: () => string): OutputFile => ({ path, owner: 'user', content: kept(path) ? '' : content() });
  const user = (path: string, template: string, view: () => object): OutputFile => own(path, () => renderPrinted(template, view()));
  yield { path: 'src/generated/types.ts', owner: 'generated', content: `${header}\n\n${renderTypes(ir)}` };
  yield gen('src/generated/schemas.ts', schemasView(ir));
  yield gen('src/generated/content.ts', contentView(ir));
  yield gen('src/generated/handlers.ts', handlersView(ir));
  yield gen('src/generated/runtime.ts');
  yield gen('src/generated/request-state.ts');
  yield gen('src/generated/sdk-handlers.ts');
  yield gen('src/generated/era.ts');
  yield gen('src/generated/input.ts');
  yield gen('src/generated/server.ts', serverView(ir));
  yield gen('src/generated/stdio.ts');
  yield gen('src/generated/stdio-transport.ts');
  yield gen('src/generated/http.ts', httpView(ir));
  yield gen('src/generated/http-wire.ts');
  yield gen('src/generated/sessions.ts');
  // Replicas sharing one Redis (REDIS_URL): loaded by http.ts only when it is set.
  const hasTasks = ir.tools.some((t) => t.execution.taskSupport !== 'forbidden');
  yield gen('src/generated/redis.ts');
  yield gen('src/generated/redis-bus.ts');
  yield gen('src/generated/redis-sessions.ts');
  yield gen('src/generated/shared.ts', { tasks: hasTasks });
  if (ir.templates.length) yield gen('src/generated/paths.ts', pathsView(ir));
  // The tasks extension (SEP-2663): only for a manifest with a tool that may run as a task.
  if (hasTasks) {
    yield gen('src/generated/tasks.ts');
    yield gen('src/generated/task-store.ts');
    yield gen('src/generated/redis-tasks.ts');
  }
  const optional = optionalFiles(ir);
  for (const file of optional) yield gen(file.path, file.view());
  yield { path: 'src/generated/contracts.json', owner: 'generated', content: renderContracts(ir, header) };
  yield gen('test/generated/contract.test.ts', contractTestView(ir));
  yield user('src/main.ts', 'src/main.ts', () => projectView(ir));
  // JSON printed as prettier prints it (cli/format/literal.ts).
  yield own('package.json', () => printJson(packageData(ir, ['src/generated/redis.ts', ...optional.map((f) => f.path)])));
  yield user('tsconfig.json', 'project/tsconfig.json', () => ({}));
  yield user('.gitignore', 'project/gitignore', () => ({}));
  // Written as prettier's markdown would print it (test/prettier-stable.test.ts).
  yield user('README.md', 'project/README.md', () => readmeView(ir));

  for (const t of ir.tools) {
    yield user(`src/handlers/${t.handlerPath}.ts`, 'src/handlers/tool.ts', () => toolStub(t));
    yield user(`test/handlers/${t.handlerPath}.test.ts`, 'test/handlers/tool.test.ts', () => toolTestStub(t));
  }
  for (const r of ir.resources) {
    if (r.handlerPath) yield user(`src/handlers/${r.handlerPath}.ts`, 'src/handlers/resource.ts', () => resourceStub(r));
  }
  for (const t of ir.templates) yield user(`src/handlers/${t.handlerPath}.ts`, 'src/handlers/template.ts', () => templateStub(t));
  for (const p of ir.prompts) {
    if (p.handlerPath) yield user(`src/handlers/${p.handlerPath}.ts`, 'src/handlers/prompt.ts', () => promptStub(p));
  }
}
