// Each simulated world's own certificate authority and a server certificate for
// 127.0.0.1 / localhost, signed by it. Clients trust the CA through NODE_EXTRA_CA_CERTS or
// their TLS options; nothing ever disables verification. Also issues client certificates
// (for admin kubeconfigs) signed by the same CA.
import forge from 'node-forge'
import { constants, createPrivateKey, generateKeyPairSync, privateEncrypt, type KeyObject } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export interface WorldTls {
  caPem: string
  caKeyPem: string
  certPem: string
  keyPem: string
  /** Path of the CA file once written with writeCa(). */
  caPath?: string
}

interface KeyPair {
  publicKey: forge.pki.rsa.PublicKey
  /** A signer for forge's cert.sign (RSASSA-PKCS1-v1_5, computed natively). */
  signer: forge.pki.rsa.PrivateKey
  /** PKCS#1 PEM. */
  privatePem: string
}

/** DER prefix of a SHA-256 DigestInfo (RFC 8017 §9.2): what PKCS#1 v1.5 signs around the digest. */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex')

/**
 * Signs as forge's RSA key does (forge hashes the TBS certificate; the DigestInfo is encrypted with
 * the private key), but through OpenSSL: forge's pure-JS big-number arithmetic takes about a second
 * a signature inside Jest's module sandbox, 40 ms outside it.
 */
function nativeSigner(key: KeyObject): forge.pki.rsa.PrivateKey {
  const sign = (md: forge.md.MessageDigest): string => {
    const digest = Buffer.from(md.digest().getBytes(), 'binary')
    const info = Buffer.concat([SHA256_DIGEST_INFO, digest])
    return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, info).toString('binary')
  }
  return { sign } as unknown as forge.pki.rsa.PrivateKey
}

/** RSA key pair generated natively (forge's pure-JS generation takes seconds). */
function keyPair(): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    publicKey: forge.pki.publicKeyFromPem(
      publicKey.export({ type: 'spki', format: 'pem' }).toString()
    ) as forge.pki.rsa.PublicKey,
    signer: nativeSigner(privateKey),
    privatePem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()
  }
}

function serial(): string {
  return '01' + forge.util.bytesToHex(forge.random.getBytesSync(15))
}

function newCert(subjectCn: string, days: number, publicKey: forge.pki.PublicKey): forge.pki.Certificate {
  const cert = forge.pki.createCertificate()
  cert.publicKey = publicKey
  cert.serialNumber = serial()
  cert.validity.notBefore = new Date(Date.now() - 60_000)
  cert.validity.notAfter = new Date(Date.now() + days * 86_400_000)
  cert.setSubject([{ name: 'commonName', value: subjectCn }])
  return cert
}

/** The common name of every world's CA. */
export const WORLD_CA_NAME = 'aks-rdma-action simulator CA'

export function createWorldTls(): WorldTls {
  const caKeys = keyPair()
  const ca = newCert(WORLD_CA_NAME, 30, caKeys.publicKey)
  ca.setIssuer(ca.subject.attributes)
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' }
  ])
  ca.sign(caKeys.signer, forge.md.sha256.create())

  const keys = keyPair()
  const cert = newCert('localhost', 30, keys.publicKey)
  cert.setIssuer(ca.subject.attributes)
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' }
      ]
    }
  ])
  cert.sign(caKeys.signer, forge.md.sha256.create())
  return {
    caPem: forge.pki.certificateToPem(ca),
    caKeyPem: caKeys.privatePem,
    certPem: forge.pki.certificateToPem(cert),
    keyPem: keys.privatePem
  }
}

/** A client certificate (CN = user, O = groups) signed by the world's CA. */
export function issueClientCert(
  tls: WorldTls,
  user: string,
  groups: string[] = []
): { certPem: string; keyPem: string } {
  const caCert = forge.pki.certificateFromPem(tls.caPem)
  const caKey = nativeSigner(createPrivateKey(tls.caKeyPem))
  const keys = keyPair()
  const cert = newCert(user, 30, keys.publicKey)
  cert.setSubject([
    { name: 'commonName', value: user },
    ...groups.map(g => ({ name: 'organizationName', value: g }))
  ])
  cert.setIssuer(caCert.subject.attributes)
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', clientAuth: true }
  ])
  cert.sign(caKey, forge.md.sha256.create())
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privatePem }
}

/** Writes the CA to a new `<dir>/ca.pem` and remembers the path. */
export function writeCa(tls: WorldTls, dir: string): string {
  mkdirSync(dir, { recursive: true })
  const p = path.join(dir, 'ca.pem')
  // A new file only: never through a link or over another file.
  writeFileSync(p, tls.caPem, { flag: 'wx', mode: 0o600 })
  tls.caPath = p
  return p
}
