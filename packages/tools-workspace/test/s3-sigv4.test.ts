// The S3 client's Signature Version 4 against the worked examples AWS publishes for S3
// (header-based authentication, example bucket and keys of the S3 API reference): the same
// request must give the same signature, byte for byte.
import { describe, expect, it } from 'vitest';
import { signRequest, uriEncode } from '../src/s3/sigv4.js';

const credentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const now = Date.parse('2013-05-24T00:00:00Z');
const sign = (url: string, headers?: Record<string, string>) =>
  signRequest({
    method: 'GET',
    url: new URL(url),
    region: 'us-east-1',
    credentials,
    body: undefined,
    now,
    ...(headers ? { headers } : {}),
  });

describe('Signature Version 4', () => {
  it("matches AWS's published S3 examples: GET Object with a range, GET bucket lifecycle, list objects", () => {
    const get = sign('https://examplebucket.s3.amazonaws.com/test.txt', { range: 'bytes=0-9' });
    expect(get.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(get['x-amz-content-sha256']).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(get['x-amz-date']).toBe('20130524T000000Z');
    expect(sign('https://examplebucket.s3.amazonaws.com/?lifecycle').authorization).toMatch(
      /Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543$/,
    );
    expect(sign('https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J').authorization).toMatch(
      /Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7$/,
    );
  });

  it('encodes keys as S3 canonicalises them, and signs a session token', () => {
    expect(uriEncode('a b/ü+%~.txt', true)).toBe('a%20b/%C3%BC%2B%25~.txt');
    expect(uriEncode('a/b', false)).toBe('a%2Fb');
    const withToken = signRequest({
      method: 'PUT',
      url: new URL('https://examplebucket.s3.amazonaws.com/x'),
      region: 'eu-west-1',
      credentials: { ...credentials, sessionToken: 'TOKEN' },
      body: new TextEncoder().encode('hi'),
      now,
    });
    expect(withToken['x-amz-security-token']).toBe('TOKEN');
    expect(withToken.authorization).toContain(
      'SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token',
    );
    expect(withToken.authorization).toContain('/20130524/eu-west-1/s3/aws4_request');
  });
});
