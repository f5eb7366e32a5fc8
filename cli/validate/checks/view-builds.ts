import fs from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { hasUiScheme } from '../../manifest/views.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';
import { isOutside, realpath } from './files.js';

/**
 * Views built from a folder (`build:`): only views have one, instead of `text`/`file`; the folder is
 * inside the manifest's folder (symlinks resolved: `mcpgen build` bundles what it finds there into
 * what the server serves) and has the `index.html` the build starts from.
 */
export function checkViewBuilds(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  for (const [name, r] of recordEntries(m.data.resources)) {
    if (!isRecord(r) || typeof r.build !== 'string') continue;
    const at = ['resources', name, 'build'];
    if (typeof r.uri === 'string' && !hasUiScheme(r.uri)) {
      out.push(
        diagAt(
          m,
          at,
          Codes.VIEW_BUILD_NOT_VIEW,
          `resource \`${name}\` is built as a view, so its URI must start with \`ui://\``,
          {
            key: true,
            hint: `e.g. ui://${name.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}; or serve a plain file with \`file:\``,
          },
        ),
      );
      continue;
    }
    const other = ['text', 'file'].find((k) => k in r);
    if (other) {
      out.push(
        diagAt(m, at, Codes.VIEW_BUILD_NOT_VIEW, `view \`${name}\` has both \`build\` and \`${other}\`: use one`, {
          key: true,
          hint: '`file` serves one HTML file as it is; `build` bundles a folder with its scripts into one',
        }),
      );
      continue;
    }
    const problem = folderProblem(m.dir, r.build);
    if (problem)
      out.push(
        diagAt(
          m,
          at,
          problem.code,
          `\`build\` of view \`${name}\`: ${problem.message}`,
          problem.hint ? { hint: problem.hint } : {},
        ),
      );
  }
  return out;
}

function folderProblem(dir: string, folder: string): { code: string; message: string; hint?: string } | null {
  const shown = `\`${folder}\``;
  const abs = path.resolve(dir, folder);
  if (path.isAbsolute(folder) || isOutside(dir, abs) || isOutside(realpath(dir) ?? dir, realpath(abs) ?? abs))
    return {
      code: Codes.REF_FILE_OUTSIDE,
      message: `${shown} is outside the manifest's folder`,
      hint: "keep the view's sources in the project and refer to them by a relative path",
    };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    return {
      code: Codes.VIEW_BUILD_FOLDER,
      message: `folder ${shown} does not exist`,
      hint: '`mcpgen add view <tool>` writes a starter view there',
    };
  }
  if (!stat.isDirectory())
    return {
      code: Codes.VIEW_BUILD_FOLDER,
      message: `${shown} is a file, not a folder`,
      hint: 'serve one HTML file as it is with `file:` instead of `build:`',
    };
  if (!fs.existsSync(path.join(abs, 'index.html')))
    return {
      code: Codes.VIEW_BUILD_FOLDER,
      message: `folder ${shown} has no index.html`,
      hint: 'the build starts from index.html, which refers to the scripts with <script type="module" src="./main.ts">',
    };
  return null;
}
