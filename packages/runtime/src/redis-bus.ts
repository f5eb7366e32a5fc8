import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';

import type { RedisHub } from './redis.js';

const TOPIC = 'events';

/**
 * The `ServerEventBus` of replicas: `ctx.notify` on any replica is published through Redis, and
 * every replica hands it to its own listeners (its `subscriptions/listen` streams and the 2025
 * sessions whose stream it holds). A publication made while Redis is away is lost, and logged.
 */
export class RedisServerEventBus implements ServerEventBus {
  readonly #listeners = new Set<(event: ServerEvent) => void>();
  readonly #unsubscribe: () => void;

  constructor(
    private readonly hub: RedisHub,
    private readonly onerror: (error: Error) => void = (error) => console.error(error.message),
  ) {
    this.#unsubscribe = hub.subscribe(TOPIC, (event) => {
      for (const listener of [...this.#listeners]) {
        try {
          listener(event as ServerEvent);
        } catch (error) {
          this.onerror(error as Error);
        }
      }
    });
  }

  publish(event: ServerEvent): void {
    this.hub
      .publish(TOPIC, event)
      .catch((error: Error) => this.onerror(new Error(`notification ${event.kind} not sent: ${error.message}`)));
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  close(): void {
    this.#unsubscribe();
    this.#listeners.clear();
  }
}
