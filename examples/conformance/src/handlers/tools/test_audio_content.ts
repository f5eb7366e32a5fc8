import type { ToolHandlers } from '../../generated/handlers.js';
import { content } from '@mcpgen/runtime';
import { WAV } from '../../fixtures.js';

/** Tool `test_audio_content`: a conformance fixture. */
export const handler: ToolHandlers['test_audio_content'] = async () => [
  content.audio(WAV, 'audio/wav'),
];
