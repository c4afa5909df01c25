package watchload

// webDeployment is the web Deployment of the bundled example
// (examples/app.yaml) as it stood when these figures were pinned. It is
// copied rather than read from the example so that changes other traces
// make to the example (a probe, another container) do not move the sizes
// this command measures and its golden files pin.
const webDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - name: http
              containerPort: 8080
          resources:
            requests:
              cpu: 250m
              memory: 128Mi
            limits:
              cpu: 500m
              memory: 256Mi
          readinessProbe:
            httpGet:
              path: /healthz
              port: http
            initialDelaySeconds: 2
            periodSeconds: 5
`
