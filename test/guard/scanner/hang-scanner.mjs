// A scanner for the tests that never finishes: it prints the start of a log and waits forever.
process.stdout.write('{"version": "2.1.0", ');
setInterval(() => {}, 60_000);
