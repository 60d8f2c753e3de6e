// `npm run bench`: figures, not pass/fail. Benchmarks arrive with the state machines.
console.log("no benchmarks yet");
