# The worker and the HTTP API share one image; docker-compose.yml picks the command.
FROM node:20-bookworm-slim
# better-sqlite3 (the demo's shop database) downloads a prebuilt binary, or compiles with these.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY tsconfig.json ./
COPY bin ./bin
COPY src ./src
ENV NODE_ENV=production HITL_DATA_DIR=/data
VOLUME /data
USER node
# node itself, as PID 1, so `docker stop`'s SIGTERM reaches the worker and it drains (docker-compose.yml says why).
CMD ["node", "--import", "tsx", "src/worker.ts"]
