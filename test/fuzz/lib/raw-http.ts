/**
 * Malformed HTTP for the Gemini and Copilot CLI endpoints, as raw bytes on their socket: what no HTTP
 * client library would send. `@@HOST@@` and `Bearer @@TOKEN@@` are filled in by the driver.
 */
import type { Frame } from './frames';
import type { Prng } from './prng';

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;
const base = ['POST /mcp HTTP/1.1', 'Host: @@HOST@@', 'Authorization: Bearer @@TOKEN@@'];
const json = ['Content-Type: application/json', 'Accept: application/json, text/event-stream'];

export function rawHttpFrame(prng: Prng, body: string): Frame {
  const length = Buffer.byteLength(body);
  const [label, data] = prng.weighted<() => [string, string | Buffer]>([
    [
      2,
      () => [
        'Content-Length larger than the body',
        head([...base, ...json, `Content-Length: ${length + 1000}`]) + body,
      ],
    ],
    [
      2,
      () => [
        'Content-Length smaller than the body',
        head([...base, ...json, `Content-Length: ${Math.floor(length / 2)}`]) + body,
      ],
    ],
    [1, () => ['negative Content-Length', head([...base, ...json, 'Content-Length: -1']) + body]],
    [
      1,
      () => ['huge Content-Length', head([...base, ...json, 'Content-Length: 99999999999999999999']) + body],
    ],
    [
      2,
      () => [
        'bad chunk size',
        head([...base, ...json, 'Transfer-Encoding: chunked']) + `zz\r\n${body}\r\n0\r\n\r\n`,
      ],
    ],
    [
      1,
      () => [
        'chunk size of 2^48',
        head([...base, ...json, 'Transfer-Encoding: chunked']) + `ffffffffffff\r\n${body}`,
      ],
    ],
    [
      1,
      () => [
        'Content-Length and chunked together',
        head([...base, ...json, `Content-Length: ${length}`, 'Transfer-Encoding: chunked']) +
          `${length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      ],
    ],
    [
      1,
      () => [
        'header 20 KB long',
        head([...base, ...json, `X-Big: ${'a'.repeat(20_000)}`, `Content-Length: ${length}`]) + body,
      ],
    ],
    [
      1,
      () => [
        '400 headers',
        head([
          ...base,
          ...json,
          ...Array.from({ length: 400 }, (_, i) => `X-H${i}: ${i}`),
          `Content-Length: ${length}`,
        ]) + body,
      ],
    ],
    [
      1,
      () => [
        'NUL in a header',
        head([...base, ...json, 'Mcp-Session-Id: a\u0000b', `Content-Length: ${length}`]) + body,
      ],
    ],
    [
      1,
      () => ['bare LF line ends', `${[...base, ...json, `Content-Length: ${length}`].join('\n')}\n\n${body}`],
    ],
    [1, () => ['bad request line', `POST /mcp HTTP/9.9\r\nHost: @@HOST@@\r\n\r\n`]],
    [
      1,
      () => [
        'absolute-form target',
        head([
          'POST http://evil.example/mcp HTTP/1.1',
          'Host: @@HOST@@',
          'Authorization: Bearer @@TOKEN@@',
          ...json,
          `Content-Length: ${length}`,
        ]) + body,
      ],
    ],
    [
      1,
      () => [
        'no Host header',
        head([
          'POST /mcp HTTP/1.1',
          'Authorization: Bearer @@TOKEN@@',
          ...json,
          `Content-Length: ${length}`,
        ]) + body,
      ],
    ],
    [
      1,
      () => [
        'two Authorization headers',
        head([...base, 'Authorization: Bearer other', ...json, `Content-Length: ${length}`]) + body,
      ],
    ],
    [
      1,
      () => [
        'Expect: 100-continue, body never sent',
        head([...base, ...json, 'Expect: 100-continue', `Content-Length: ${length}`]),
      ],
    ],
    [
      1,
      () => [
        'gzip body that is not gzip',
        head([...base, ...json, 'Content-Encoding: gzip', `Content-Length: ${length}`]) + body,
      ],
    ],
    [
      1,
      () => [
        '30 pipelined requests',
        (head([...base, ...json, `Content-Length: ${length}`]) + body).repeat(30),
      ],
    ],
    [
      1,
      () => [
        'HTTP/1.0 without a length',
        head(['POST /mcp HTTP/1.0', 'Host: @@HOST@@', 'Authorization: Bearer @@TOKEN@@', ...json]) + body,
      ],
    ],
    [1, () => ['random bytes', prng.bytes(prng.between(1, 4096))]],
    [
      1,
      () => [
        'GET with a body and a bad session',
        head([
          'GET /mcp HTTP/1.1',
          'Host: @@HOST@@',
          'Authorization: Bearer @@TOKEN@@',
          'Accept: text/event-stream',
          'Mcp-Session-Id: ../../x',
          `Content-Length: ${length}`,
        ]) + body,
      ],
    ],
  ])();
  return { label: `raw HTTP: ${label}`, data, binary: false, raw: true };
}
