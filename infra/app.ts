import { App, Stack } from 'aws-cdk-lib';

// A minimal app so `cdk synth` runs; the infrastructure work replaces it with the Astro stack.
const app = new App();
new Stack(app, 'Astro');
app.synth();
