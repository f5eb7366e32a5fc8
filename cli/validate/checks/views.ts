import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { findViewResource, hasUiScheme, isView, isViewMimeType, VIEW_MIME_TYPE } from '../../manifest/views.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

// What a host can put in a CSP source list for the view: a scheme, a host (a leading `*.` for its
// subdomains) and a port, nothing more. A path, a query or a bare host would be dropped or
// widened differently by each host.
const ORIGIN =
  /^(?:https?|wss?):\/\/(?:\*\.)?(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::\d{1,5})?$/;
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/**
 * Views (MCP Apps): a tool's `ui.resource` names a view of this manifest; a view's URI is
 * `ui://…` and its MIME type the extension's; its policy lists origins and a host name; `meta.ui`
 * is left to `ui`, which writes `_meta.ui`.
 */
export function checkViews(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  for (const [name, r] of recordEntries(m.data.resources)) {
    if (!isRecord(r) || !isView(r)) continue;
    const base = ['resources', name];
    if (r.ui !== undefined && typeof r.uri === 'string' && !hasUiScheme(r.uri))
      out.push(
        diagAt(
          m,
          [...base, 'uri'],
          Codes.VIEW_URI_NOT_UI,
          `resource \`${name}\` is a view (\`ui\`), so its URI must start with \`ui://\``,
          {
            hint: `e.g. ui://${name.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`,
          },
        ),
      );
    if (typeof r.mimeType === 'string' && !isViewMimeType(r.mimeType))
      out.push(
        diagAt(
          m,
          [...base, 'mimeType'],
          Codes.VIEW_MIME_TYPE,
          `view \`${name}\` is served as \`${VIEW_MIME_TYPE}\`, not \`${r.mimeType}\``,
          {
            hint: "remove `mimeType`: a view gets the extension's MIME type",
          },
        ),
      );
    if (isRecord(r.meta) && r.meta.ui !== undefined)
      out.push(metaConflict(m, [...base, 'meta', 'ui'], `view \`${name}\``));
    const ui = isRecord(r.ui) ? r.ui : {};
    const csp = isRecord(ui.csp) ? ui.csp : {};
    for (const key of CSP_KEYS) {
      const list = csp[key];
      if (!Array.isArray(list)) continue;
      list.forEach((origin, i) => {
        if (typeof origin !== 'string' || ORIGIN.test(origin)) return;
        out.push(
          diagAt(
            m,
            [...base, 'ui', 'csp', key, i],
            Codes.VIEW_BAD_POLICY,
            `\`${origin}\` in \`ui.csp.${key}\` of view \`${name}\` is not an origin`,
            {
              hint: 'write scheme://host[:port] with no path, e.g. https://api.example.com or https://*.example.com',
            },
          ),
        );
      });
    }
    if (typeof ui.domain === 'string' && !HOST.test(ui.domain))
      out.push(
        diagAt(
          m,
          [...base, 'ui', 'domain'],
          Codes.VIEW_BAD_POLICY,
          `\`ui.domain\` of view \`${name}\` is not a host name`,
          {
            hint: 'write the host alone, as the host documents it, e.g. a904794854a047f6.claudemcpcontent.com',
          },
        ),
      );
  }
  for (const [name, t] of recordEntries(m.data.tools)) {
    if (!isRecord(t)) continue;
    if (isRecord(t.ui) && isRecord(t.meta) && t.meta.ui !== undefined)
      out.push(metaConflict(m, ['tools', name, 'meta', 'ui'], `tool \`${name}\``));
    const ref = isRecord(t.ui) ? t.ui.resource : undefined;
    if (typeof ref !== 'string') continue;
    const found = findViewResource(m.data.resources, ref);
    if (found && isView(found.resource)) continue;
    const views = recordEntries(m.data.resources)
      .filter(([, r]) => isView(r))
      .map(([n]) => `\`${n}\``);
    const message = found
      ? `tool \`${name}\` shows resource \`${found.name}\`, which is not a view: its URI is not \`ui://…\``
      : `tool \`${name}\` shows view \`${ref}\`, which is not a resource of this manifest (by name or URI)`;
    out.push(
      diagAt(m, ['tools', name, 'ui', 'resource'], Codes.VIEW_NOT_FOUND, message, {
        hint: views.length
          ? `views: ${views.join(', ')}`
          : 'declare it under `resources:` with a `ui://` URI, its HTML as `file` or `text`, and `ui: {}`',
      }),
    );
  }
  return out;
}

function metaConflict(m: LoadedManifest, path: (string | number)[], what: string): Diagnostic {
  return diagAt(m, path, Codes.VIEW_META_CONFLICT, `\`meta.ui\` of ${what} would be replaced by what \`ui\` says`, {
    key: true,
    hint: 'say it with `ui` (it is sent as `_meta.ui`), or move the key elsewhere in `meta`',
  });
}
