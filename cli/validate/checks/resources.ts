import type { Diagnostic } from '../../diagnostics.js';
import { locateInString } from '../../load/locators.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';
import { type UriProblem, uriProblem } from '../uri.js';

/**
 * A resources/read is looked up by its URI as the URL parser writes it (`new URL(uri).href`): a
 * resource registered under any other spelling of it (`café`, `HTTPS://Host`, `a/../b`,
 * `https://host` without `/`) is listed but never read.
 */
function unreadable(uri: string): UriProblem | undefined {
  let href: string;
  try {
    href = new URL(uri).href;
  } catch {
    return undefined; // what the URL parser refuses, clients cannot send either
  }
  if (href === uri) return undefined;
  return {
    message: `${uri} is read as ${href} (clients' URIs are looked up as the URL parser writes them), so no read would find it`,
    start: 0,
    end: uri.length,
    hint: `write \`${href}\``,
  };
}

/**
 * Resources: a valid absolute URI in the form reads look it up by, unique among resources (clients read by URI, so a duplicate
 * would hide one of them); `text` and `file` exclusive; `encoding` only with `file`.
 * URI templates are checked for duplicates here too; their syntax in templates.ts.
 */
export function checkResources(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  const byUri = new Map<string, string>();
  for (const [name, r] of recordEntries(m.data.resources)) {
    if (!isRecord(r)) continue;
    const base: JsonPath = ['resources', name];
    if (typeof r.uri === 'string') {
      const problem = uriProblem(r.uri) ?? unreadable(r.uri);
      if (problem) {
        const range =
          problem.end > problem.start ? locateInString(m, [...base, 'uri'], problem.start, problem.end) : undefined;
        out.push(
          diagAt(m, [...base, 'uri'], Codes.BAD_RESOURCE_URI, `resource \`${name}\` URI ${problem.message}`, {
            ...(range ? { range } : {}),
            ...(problem.hint ? { hint: problem.hint } : {}),
          }),
        );
      }
      const first = byUri.get(r.uri);
      if (first !== undefined) {
        out.push(
          diagAt(
            m,
            [...base, 'uri'],
            Codes.DUPLICATE_URI,
            `resource \`${name}\` has the same URI as resource \`${first}\`: ${r.uri}`,
          ),
        );
      } else byUri.set(r.uri, name);
    }
    if ('text' in r && 'file' in r) {
      out.push(
        diagAt(
          m,
          [...base, 'file'],
          Codes.TEXT_AND_FILE,
          `resource \`${name}\` has both \`text\` and \`file\`: use one`,
          {
            key: true,
            hint: 'or neither, to write a read handler that produces the content',
          },
        ),
      );
    }
    if ('encoding' in r && !('file' in r)) {
      out.push(
        diagAt(
          m,
          [...base, 'encoding'],
          Codes.ENCODING_WITHOUT_FILE,
          `\`encoding\` of resource \`${name}\` has no effect: it only applies to \`file\` content`,
          {
            key: true,
            severity: 'warning',
          },
        ),
      );
    }
  }
  const byTemplate = new Map<string, string>();
  for (const [name, t] of recordEntries(m.data.resourceTemplates)) {
    if (!isRecord(t) || typeof t.uriTemplate !== 'string') continue;
    const first = byTemplate.get(t.uriTemplate);
    if (first !== undefined) {
      out.push(
        diagAt(
          m,
          ['resourceTemplates', name, 'uriTemplate'],
          Codes.DUPLICATE_URI,
          `resource template \`${name}\` has the same URI template as \`${first}\`: ${t.uriTemplate}`,
        ),
      );
    } else byTemplate.set(t.uriTemplate, name);
  }
  return out;
}
