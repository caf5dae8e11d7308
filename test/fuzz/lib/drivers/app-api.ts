/**
 * The app API over the headless WebSocket, as the UI speaks it: the fuzz's own view of the app, used to
 * list pending reviews, read their texts (leak check) and reject them at the end of a batch.
 */
import { typedCall, type AppSnapshot, type ReviewFileContent } from '../../../../shared/app-api';
import type { Endpoints } from '../app-process';
import { isRecord, WsLink } from './ws-link';

export function headlessApiUrl(endpoints: Endpoints): { url: string; origin: string } {
  const { port, token } = endpoints.headless;
  return { url: `ws://127.0.0.1:${port}/api?token=${token}`, origin: `http://127.0.0.1:${port}` };
}

export class AppApiClient {
  private nextId = 1;

  private constructor(private readonly link: WsLink) {}

  static async open(
    endpoints: Endpoints,
    onText?: (text: string) => void,
    timeoutMs = 10_000,
  ): Promise<AppApiClient> {
    const { url, origin } = headlessApiUrl(endpoints);
    return new AppApiClient(await WsLink.open({ url, origin, ...(onText && { onText }) }, timeoutMs));
  }

  async call(method: string, params: unknown, timeoutMs = 10_000): Promise<unknown> {
    const id = this.nextId++;
    const answer = this.link.waitFor(
      (m) => isRecord(m) && m.id === id,
      timeoutMs,
      `${method} on the app API`,
    );
    await this.link.sendJson({ id, method, params });
    const message = (await answer) as { result?: unknown; error?: { message: string } };
    if (message.error) throw new Error(message.error.message);
    return message.result;
  }

  /** The same calls, typed by the app API contract. */
  private readonly typed = typedCall((method, params) => this.call(method, params));

  snapshot(): Promise<AppSnapshot> {
    return this.typed('getSnapshot', {});
  }

  contents(reviewId: string): Promise<ReviewFileContent[]> {
    return this.typed('getReviewContent', { reviewId });
  }

  close(): void {
    this.link.close();
  }
}
