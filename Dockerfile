# The bot as a container image: the locked dependencies (requirements/run.txt, each file
# checked against its hash) and the project, built as a wheel, installed into a slim
# Python image, run as a non-root user, its SQLite database (if no DATABASE_URL is set)
# on the volume /data, its web pages on port 8080 of every interface of the container.
# compose.yaml runs two of these on PostgreSQL, and one serving the web pages.
#
#   docker build -t schotten-totten-bot .
#   docker run --rm -e DISCORD_TOKEN=... -v schotten-data:/data schotten-totten-bot python -m bot check
#   docker run -e DISCORD_TOKEN=... -e PUBLIC_URL=http://HOST:8080 -p 8080:8080 -v schotten-data:/data \
#       --ulimit nofile=8192:8192 schotten-totten-bot
#
# The open-file limit is the container runtime's (--ulimit above, ulimits in compose.yaml):
# the web pages keep to half of it (README.md, "Web pages").
#
# tests/test_compose.py runs these install and start steps on a read-only copy of the
# source (it cannot run Docker) and checks compose.yaml against this file.

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY rules/ rules/
COPY bot/ bot/
COPY cogs/ cogs/
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY requirements/run.txt /tmp/run.txt
COPY --from=build /wheels /wheels
# The pictures' fonts for names in Arabic, Hebrew, Chinese, Japanese, Korean and emoji
# (bot/pictures/lettering.py), fontconfig to find them, and libraqm0 (with FriBiDi, which
# Pillow's raqm layout loads) to shape right-to-left names.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        fontconfig fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji libraqm0 \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir --require-hashes -r /tmp/run.txt \
    && pip install --no-cache-dir --no-deps /wheels/*.whl \
    && rm -rf /wheels /tmp/run.txt \
    && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home schotten \
    && mkdir /data && chown schotten:schotten /data
USER schotten
WORKDIR /data
ENV DATABASE_PATH=/data/schotten.db
# /healthz, /readyz and /metrics on a port of their own (README.md, "Health and
# metrics"), inside the container unless METRICS_HOST=0.0.0.0 is set for Prometheus.
ENV METRICS_PORT=9100
VOLUME ["/data"]
# The web pages: reachable through a published port (-p 8080:8080) only on 0.0.0.0.
ENV WEB_HOST=0.0.0.0 WEB_PORT=8080
EXPOSE 8080
# Docker's health check: /healthz over Python's urllib (the image has no curl), on
# METRICS_PORT, or on WEB_PORT if METRICS_PORT is 0.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request as r; p = os.environ.get('METRICS_PORT') or '0'; p = p if p != '0' else os.environ.get('WEB_PORT') or '8080'; r.urlopen(f'http://127.0.0.1:{p}/healthz', timeout=4)"]
# python -m bot closes Discord and then the database on SIGTERM, within 10 seconds
# (Docker's default grace period before SIGKILL).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
