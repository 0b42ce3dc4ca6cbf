import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** What authenticator apps expect (RFC 6238 defaults): SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_S = 30;
const TOTP_OPTIONS = { algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S } as const;
/** A code is accepted one step either side of now (clock drift), and each time step once only. */
const WINDOW = 1;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpFor(secretBase32: string, issuer: string, username: string): TOTP {
  return new TOTP({ ...TOTP_OPTIONS, issuer, label: username, secret: Secret.fromBase32(secretBase32) });
}

/** The otpauth:// URL and the QR code (SVG) an authenticator app scans. */
export async function enrolmentFor(secretBase32: string, issuer: string, username: string) {
  const otpauthUrl = totpFor(secretBase32, issuer, username).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret: secretBase32, otpauth_url: otpauthUrl, qr_svg: qrSvg };
}

/** The time step `code` belongs to (within the window around `nowMs`), or null when it is wrong. */
export function matchingStep(secretBase32: string, code: string, nowMs: number): number | null {
  const totp = new TOTP({ ...TOTP_OPTIONS, secret: Secret.fromBase32(secretBase32) });
  const delta = totp.validate({ token: code, timestamp: nowMs, window: WINDOW });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_S) + delta;
}

export interface TotpKeyCipher {
  encrypt(secretBase32: string, adminId: number): string;
  /** Undefined when the stored value cannot be read (another session secret, or tampered with). */
  decrypt(stored: string, adminId: number): string | undefined;
}

/**
 * Authenticator keys are stored encrypted (AES-256-GCM) with a key derived from the session secret
 * for this purpose only, and bound to their admin (the id is authenticated data): a copy of the
 * database alone yields no key, and a key moved to another admin's row does not decrypt.
 * Format: `v1.<iv>.<ciphertext>.<tag>`, base64url.
 */
export function totpKeyCipher(sessionSecret: string): TotpKeyCipher {
  const key = createHmac('sha256', sessionSecret).update('totp-key-encryption').digest();
  const aad = (adminId: number) => Buffer.from(`admin:${adminId}`);
  return {
    encrypt(secretBase32, adminId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(adminId));
      const data = Buffer.concat([cipher.update(secretBase32, 'utf8'), cipher.final()]);
      return ['v1', iv, data, cipher.getAuthTag()].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    decrypt(stored, adminId) {
      const [version, iv, data, tag] = stored.split('.');
      if (version !== 'v1' || !iv || !data || !tag) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(aad(adminId));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
