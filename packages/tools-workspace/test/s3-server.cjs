// Runs s3rver (a real S3-protocol server) for the S3 workspace tests, in its own process: its
// listing pagination encrypts continuation tokens with DES, which Node 17+ offers only with
// --openssl-legacy-provider, a flag the test process itself should not run with.
// argv: <data folder> <bucket>. Prints the port on stdout, then serves until stdin closes.
const S3rver = require('s3rver');
const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: process.env.S3RVER_LOUD !== '1',
  directory,
  configureBuckets: [{ name: bucket }],
});
server.run().then(
  ({ port }) => process.stdout.write(`${port}\n`),
  (e) => {
    process.stderr.write(`s3rver: ${e.message}\n`);
    process.exit(1);
  },
);
process.stdin.on('end', () => server.close().finally(() => process.exit(0)));
process.stdin.resume();
