/** A whole HTTP response read as text, for tests that speak raw HTTP to an endpoint. */
import type http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Reads `response` to its end and resolves with it. */
export function readResponse(response: http.IncomingMessage, resolve: (raw: RawResponse) => void): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () =>
    resolve({
      status: response.statusCode ?? 0,
      headers: response.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    }),
  );
}
