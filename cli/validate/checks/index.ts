import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { checkAuth } from './auth.js';
import { checkFiles } from './files.js';
import { checkHttpBackends } from './http-backend.js';
import { checkInlinedSize } from './inlined-size.js';
import { checkNameCollisions } from './name-collisions.js';
import { checkPackageName, checkToolHints, checkTransports } from './hints-and-transports.js';
import { checkPrompts } from './prompts.js';
import { checkProtoNames } from './proto-keys.js';
import { checkRecursiveSchemas } from './recursive-schemas.js';
import { checkRefCycles } from './ref-cycles.js';
import { checkResources } from './resources.js';
import { checkEmbeddedSchemas, checkProtoProperties, checkRefs, checkSchemaNodesAll } from './schema-nodes.js';
import { checkTemplates } from './templates.js';
import { checkTemplateSamples } from './template-samples.js';
import { checkTextSize } from './text-size.js';
import { checkToolSchemaRoots } from './tool-schemas.js';
import { checkToolExecution } from './tool-execution.js';
import { checkViewBuilds } from './view-builds.js';
import { checkViews } from './views.js';

/** A semantic rule: reads the loaded manifest (any shape: the schema may have rejected it) and reports. */
export type Check = (m: LoadedManifest) => Diagnostic[];

/** The semantic checks (MCPG2xx), run after the schema check; order does not matter (output is sorted). */
export const semanticChecks: readonly Check[] = [
  // checkRefs, checkEmbeddedSchemas and checkProtoProperties, in one walk of the embedded schemas.
  checkSchemaNodesAll,
  checkRefCycles,
  checkToolSchemaRoots,
  checkResources,
  checkTemplates,
  checkTemplateSamples,
  checkPrompts,
  checkProtoNames,
  checkFiles,
  checkTextSize,
  checkToolHints,
  checkToolExecution,
  checkViews,
  checkViewBuilds,
  checkHttpBackends,
  checkTransports,
  checkAuth,
  checkPackageName,
  // Names and schemas as the build derives them: generate rejects nothing validate accepts.
  checkNameCollisions,
  checkRecursiveSchemas,
  checkInlinedSize,
];

export {
  checkAuth,
  checkEmbeddedSchemas,
  checkFiles,
  checkNameCollisions,
  checkPrompts,
  checkRecursiveSchemas,
  checkRefCycles,
  checkRefs,
  checkProtoProperties,
  checkResources,
  checkTemplates,
  checkToolHints,
  checkToolSchemaRoots,
  checkTransports,
};
