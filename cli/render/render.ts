/**
 * render: IR → the project's files (unformatted). One view model per file kind, built here so the
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
  projectView,
  schemasView,
  serverView,
} from './views.js';
import { promptStub, resourceStub, templateStub, toolStub, toolTestStub } from './stubs.js';
import { contractTestView } from './contract-view.js';
import { renderContracts } from './contracts.js';

export async function renderProject(ir: IR): Promise<OutputFile[]> {
  const header = headerLines(ir);
  const gen = (path: string, template: string, view: object): OutputFile => {
    const data: unknown[] = [];
    const content = renderTemplate(template, { header, ...view, __data: data });
    return data.length ? { path, owner: 'generated', content, data } : { path, owner: 'generated', content };
  };
  const user = (path: string, template: string, view: object): OutputFile => ({
    path,
    owner: 'user',
    content: renderTemplate(template, view),
  });

  const files: OutputFile[] = [
    { path: 'src/generated/types.ts', owner: 'generated', content: `${header}\n\n${renderTypes(ir)}`, formatted: true },
    gen('src/generated/schemas.ts', 'src/generated/schemas.ts', schemasView(ir)),
    gen('src/generated/content.ts', 'src/generated/content.ts', contentView(ir)),
    gen('src/generated/handlers.ts', 'src/generated/handlers.ts', handlersView(ir)),
    gen('src/generated/runtime.ts', 'src/generated/runtime.ts', {}),
    gen('src/generated/server.ts', 'src/generated/server.ts', serverView(ir)),
    gen('src/generated/stdio.ts', 'src/generated/stdio.ts', { serverName: ir.server.name }),
    gen('src/generated/http.ts', 'src/generated/http.ts', httpView(ir)),
    { path: 'src/generated/contracts.json', owner: 'generated', content: renderContracts(ir, header) },
    gen('test/generated/contract.test.ts', 'test/generated/contract.test.ts', contractTestView(ir)),
    user('src/main.ts', 'src/main.ts', projectView(ir)),
    user('package.json', 'project/package.json', projectView(ir)),
    user('tsconfig.json', 'project/tsconfig.json', {}),
    user('.gitignore', 'project/gitignore', {}),
  ];

  for (const t of ir.tools) {
    files.push(user(`src/handlers/${t.handlerPath}.ts`, 'src/handlers/tool.ts', toolStub(t)));
    files.push(user(`test/handlers/${t.handlerPath}.test.ts`, 'test/handlers/tool.test.ts', toolTestStub(t)));
  }
  for (const r of ir.resources) {
    if (r.handlerPath) files.push(user(`src/handlers/${r.handlerPath}.ts`, 'src/handlers/resource.ts', resourceStub(r)));
  }
  for (const t of ir.templates) files.push(user(`src/handlers/${t.handlerPath}.ts`, 'src/handlers/template.ts', templateStub(t)));
  for (const p of ir.prompts) {
    if (p.handlerPath) files.push(user(`src/handlers/${p.handlerPath}.ts`, 'src/handlers/prompt.ts', promptStub(p)));
  }
  return files;
}
