/**
 * The Azure Speech websocket framing, as the Speech SDK writes and reads it
 * (microsoft-cognitiveservices-speech-sdk, common.speech/WebsocketMessageFormatter):
 * - text frame: `Name: value\r\n` headers, an empty line, then the body;
 * - binary frame: a 2-byte big-endian header length, the ASCII headers, then the payload.
 * Header names are matched case-insensitively, as the SDK does.
 */

export interface SpeechFrame {
  readonly path: string;
  readonly requestId: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text?: string;
  readonly binary?: Uint8Array;
}

const CRLF = '\r\n';

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.split(CRLF)) {
    const separator = line.indexOf(':');
    if (separator > 0)
      headers[line.slice(0, separator).trim().toLowerCase()] = line.slice(separator + 1).trim();
  }
  return headers;
}

function frameOf(headers: Record<string, string>, body: Pick<SpeechFrame, 'text' | 'binary'>): SpeechFrame {
  return { path: headers.path ?? '', requestId: headers['x-requestid'] ?? '', headers, ...body };
}

/** Reads one frame the client sent: a string is a text frame, bytes a binary one. */
export function decodeFrame(data: string | Uint8Array): SpeechFrame {
  if (typeof data === 'string') {
    const split = data.indexOf(CRLF + CRLF);
    const head = split < 0 ? data : data.slice(0, split);
    return frameOf(parseHeaders(head), { text: split < 0 ? '' : data.slice(split + 4) });
  }
  if (data.byteLength < 2) throw new Error('binary speech frame without its header length');
  const headerLength = new DataView(data.buffer, data.byteOffset, 2).getUint16(0);
  if (data.byteLength < 2 + headerLength) throw new Error('binary speech frame shorter than its headers');
  const head = Buffer.from(data.subarray(2, 2 + headerLength)).toString('latin1');
  return frameOf(parseHeaders(head), { binary: data.slice(2 + headerLength) });
}

function headerBlock(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}${CRLF}`)
    .join('');
}

/** A text frame the service sends (headers, empty line, body). */
export function encodeText(
  path: string,
  requestId: string,
  body: string,
  contentType = 'application/json',
): string {
  return `${headerBlock({ 'X-RequestId': requestId, 'Content-Type': contentType, Path: path })}${CRLF}${body}`;
}

/** A binary frame the service sends: big-endian header length, ASCII headers, payload. */
export function encodeBinary(headers: Record<string, string>, payload: Uint8Array): Uint8Array {
  const head = Buffer.from(headerBlock(headers), 'latin1');
  const frame = new Uint8Array(2 + head.byteLength + payload.byteLength);
  frame[0] = (head.byteLength >> 8) & 0xff;
  frame[1] = head.byteLength & 0xff;
  frame.set(head, 2);
  frame.set(payload, 2 + head.byteLength);
  return frame;
}

/** A binary frame from the client (SDK's own format), for testing the fake itself. */
export function encodeClientBinary(path: string, requestId: string, payload: Uint8Array): Uint8Array {
  return encodeBinary({ Path: path, 'X-RequestId': requestId }, payload);
}
