import type { MadePicture } from './picture-maker';
import { MalformedReply } from '../upstream/upstream-errors';

/**
 * A picture from a model's base64 answer, checked by its first bytes: whatever is stored and then
 * served same-origin must really be the PNG or JPEG its content type says.
 */
export function pictureFromBase64(base64: unknown): MadePicture {
  if (typeof base64 !== 'string' || base64.length === 0) throw new MalformedReply('no picture in the answer');
  const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { bytes, contentType: 'image/png', extension: 'png' };
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { bytes, contentType: 'image/jpeg', extension: 'jpg' };
  throw new MalformedReply('the answer is not a PNG or JPEG picture');
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length > signature.length && signature.every((byte, index) => bytes[index] === byte);
}
