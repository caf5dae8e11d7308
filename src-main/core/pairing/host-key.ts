/**
 * DiffTray's long-lived identity: an Ed25519 key pair in `<DIFFTRAY_HOME>/host-key.pem` (0600 in a 0700
 * folder), made on first start. A paired host pins its public half at pairing and, on every connect, asks
 * DiffTray to sign a fresh nonce with it (shared/native-handshake.ts): a program that took the tunnel's
 * port cannot.
 *
 * A file that is there but unreadable as such a key is left as it is (nothing lost): DiffTray then runs
 * with a key of this run only, says so in its log, and paired hosts refuse it by its fingerprint.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { HostKeyInfo } from '../../../shared/native-handshake';
import { writeFileAtomically } from '../disk/atomic-file';
import { readRegularFile } from '../disk/regular-file';
import { fingerprintOf, labelled } from './handshake-proof';
import { messageOf } from '../../../shared/error-message';

export class HostKey {
  readonly info: HostKeyInfo;

  private constructor(private readonly privateKey: KeyObject) {
    const der = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    const publicKey = der.toString('base64');
    this.info = { public_key: publicKey, fingerprint: fingerprintOf(publicKey) };
  }

  /** A key for this run only (tests, or when the file cannot be used). */
  static ephemeral(): HostKey {
    return new HostKey(generateKeyPairSync('ed25519').privateKey);
  }

  /** The key in `file`, made (and written 0600) when there is none. */
  static loadOrCreate(file: string, log: (message: string) => void = () => {}): HostKey {
    let pem: string | undefined;
    try {
      pem = readRegularFile(file, { maxBytes: 64 * 1024 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        log(`host key: cannot read ${file} (${messageOf(error)}); using a key for this run only`);
        return HostKey.ephemeral();
      }
    }
    if (pem === undefined) {
      const { privateKey } = generateKeyPairSync('ed25519');
      try {
        writeFileAtomically(file, privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
      } catch (error) {
        log(`host key: cannot write ${file} (${messageOf(error)}); using a key for this run only`);
      }
      return new HostKey(privateKey);
    }
    try {
      const privateKey = createPrivateKey(pem);
      if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
      return new HostKey(privateKey);
    } catch (error) {
      log(
        `host key: ${file} is not DiffTray's key (${messageOf(error)}); left as it is, using a key ` +
          'for this run only (paired hosts will refuse it: move the file away and pair them again)',
      );
      return HostKey.ephemeral();
    }
  }

  /** Ed25519 over `label ‖ nonce`, base64. */
  sign(label: string, nonceHex: string): string {
    return sign(null, labelled(label, nonceHex), this.privateKey).toString('base64');
  }
}
