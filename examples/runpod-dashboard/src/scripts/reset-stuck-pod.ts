// Ops script: resets a pod whose container hangs. v2 has no reset, so this one needs a person.
const podId = process.argv[2];

const res = await fetch(`https://rest.runpod.io/v1/pods/${podId}/reset`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${process.env.RUNPOD_API_KEY}` },
});
console.log(res.status);
