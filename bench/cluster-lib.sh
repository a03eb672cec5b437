# Shared by the cluster scripts (cluster-demo.sh, cluster-failover.sh, cluster.sh): sourced, never run.
# A throwaway PostgreSQL cluster from Debian's binaries, the provider simulator, event service
# instances in cluster mode and Debian's nginx balancing them. Every process started here is recorded
# in CL_PIDS and stopped by cl_cleanup (set as the EXIT trap by the caller); the directory CL_DIR goes too.
#
# Needs JAVA (the launcher sets it), brisk-events built (the launcher builds), curl; installs nginx and
# the PostgreSQL server binaries with apt-get when missing and root (as bench/lib.sh does wrk).

CL_DIR="$(mktemp -d /tmp/brisk-cluster.XXXXXX)"
chmod 755 "$CL_DIR"
CL_PIDS=()
CL_EV_CP="brisk-events/target/brisk-events.jar:brisk-events/target/lib/*"
CL_PG_BIN=""
CL_PG_DATA="$CL_DIR/pg"
CL_PG_PORT="${CL_PG_PORT:-25432}"
CL_SIM_PORT="${CL_SIM_PORT:-28081}"
CL_LB_PORT="${CL_LB_PORT:-28080}"
# instance i listens on CL_BASE_PORT + i, its metrics on CL_BASE_METRICS + i
CL_BASE_PORT="${CL_BASE_PORT:-28180}"
CL_BASE_METRICS="${CL_BASE_METRICS:-29190}"
CL_DB_URL="jdbc:postgresql://127.0.0.1:$CL_PG_PORT/postgres?user=postgres"
declare -A CL_INSTANCE_PID

# cl_check_ports N: fails, naming the setting to change, when a port this set-up needs (PostgreSQL, the
# simulator, nginx, N instances and their metrics) already answers on 127.0.0.1.
cl_check_ports() {
  local n="$1" i port name
  local -a wanted=("$CL_PG_PORT CL_PG_PORT" "$CL_SIM_PORT CL_SIM_PORT" "$CL_LB_PORT CL_LB_PORT")
  for ((i = 1; i <= n; i++)); do
    wanted+=("$((CL_BASE_PORT + i)) CL_BASE_PORT" "$((CL_BASE_METRICS + i)) CL_BASE_METRICS")
  done
  for i in "${wanted[@]}"; do
    read -r port name <<<"$i"
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "cluster: port $port is taken on 127.0.0.1; choose others with $name=..." >&2; exit 1
    fi
  done
}

# cl_require_packages: nginx and the PostgreSQL server binaries, installed when missing (root + apt-get).
cl_require_packages() {
  local missing=""
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing="$missing nginx"
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing="$missing postgresql"
  command -v curl >/dev/null 2>&1 || missing="$missing curl"
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "cluster: installing$missing (Debian packages)"
    if [[ $missing == *postgresql* ]]; then
      # only the binaries: no cluster 'main' on port 5432 from the package's postinst
      mkdir -p /etc/postgresql-common/createcluster.d
      echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.d/brisk-ci.conf
    fi
    # nginx's postinst starts a default server on port 80; stopped below, it is not ours to keep
    (export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing) >/dev/null
    if [[ $missing == *nginx* ]]; then
      systemctl stop nginx 2>/dev/null || true
    fi
  else
    echo "cluster: missing$missing (apt-get install$missing)" >&2; exit 1
  fi
}

# cl_as_pg CMD...: runs CMD as the postgres OS user when root (PostgreSQL refuses root), else as is.
cl_as_pg() {
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# cl_pg_start: initdb + start on 127.0.0.1:CL_PG_PORT, fsync off (a throwaway database).
cl_pg_start() {
  CL_PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
  mkdir -p "$CL_PG_DATA"
  [ "$(id -u)" = 0 ] && { id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres; chown postgres "$CL_DIR" "$CL_PG_DATA"; }
  cl_as_pg "$CL_PG_BIN/initdb" -D "$CL_PG_DATA" -U postgres --auth=trust -E UTF8 --locale=C --no-sync >"$CL_DIR/initdb.log" 2>&1 \
    || { cat "$CL_DIR/initdb.log" >&2; exit 1; }
  cat >>"$CL_PG_DATA/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $CL_PG_PORT
unix_socket_directories = '$CL_DIR'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = ${CL_PG_MAX_CONNECTIONS:-50}
CONF
  cl_as_pg "$CL_PG_BIN/pg_ctl" -D "$CL_PG_DATA" -l "$CL_DIR/postgres.log" -w -t 60 start >/dev/null \
    || { cat "$CL_DIR/postgres.log" >&2; exit 1; }
}

cl_psql() { "$CL_PG_BIN/psql" -h 127.0.0.1 -p "$CL_PG_PORT" -U postgres -d postgres -qtAX -c "$1"; }

# cl_sim_start [ENV=VALUE...]: the simulator on CL_SIM_PORT with the given SIM_* settings.
cl_sim_start() {
  env SIM_PORT="$CL_SIM_PORT" "$@" "$JAVA" -Xmx512m -cp "$CL_EV_CP" dev.brisk.events.sim.SimulatorMain >"$CL_DIR/simulator.log" 2>&1 &
  CL_PIDS+=($!)
  wait_http "http://127.0.0.1:$CL_SIM_PORT/health" 60
}

# cl_instance_start I [ENV=VALUE...]: instance I (1..) in cluster mode; its pid in CL_INSTANCE_PID[I].
cl_instance_start() {
  local i="$1"; shift
  env BRISK_PORT=$((CL_BASE_PORT + i)) BRISK_METRICS_PORT=$((CL_BASE_METRICS + i)) \
    EVENTS_PROVIDER_URL="http://127.0.0.1:$CL_SIM_PORT/feed" EVENTS_DB_URL="$CL_DB_URL" \
    EVENTS_CLUSTER=true EVENTS_INSTANCE_ID="events-$i" EVENTS_DATA_DIR="$CL_DIR/data-$i" "$@" \
    "$JAVA" -Xms256m -Xmx256m --enable-native-access=ALL-UNNAMED -cp "$CL_EV_CP" dev.brisk.events.EventsMain \
    >"$CL_DIR/events-$i.log" 2>&1 &
  CL_PIDS+=($!)
  CL_INSTANCE_PID[$i]=$!
}

# cl_nginx_start N: nginx on CL_LB_PORT over instances 1..N. GET and HEAD (idempotent) are passed to the
# next instance on a connection error, a timeout or a 502/503/504, so a killed instance costs no request
# that can be retried; an instance that failed is left out for 2 s.
cl_nginx_start() {
  local n="$1" i servers=""
  for ((i = 1; i <= n; i++)); do
    servers="$servers    server 127.0.0.1:$((CL_BASE_PORT + i)) max_fails=1 fail_timeout=2s;
"
  done
  mkdir -p "$CL_DIR/nginx-tmp"
  chmod 777 "$CL_DIR/nginx-tmp"
  cat >"$CL_DIR/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $CL_DIR/nginx.pid;
error_log $CL_DIR/nginx-error.log warn;
events { worker_connections 1024; }
http {
  log_format brisk '\$status \$upstream_addr \$upstream_status \$request_time "\$request"';
  access_log $CL_DIR/nginx-access.log brisk;
  client_body_temp_path $CL_DIR/nginx-tmp/body;
  proxy_temp_path $CL_DIR/nginx-tmp/proxy;
  fastcgi_temp_path $CL_DIR/nginx-tmp/fastcgi;
  uwsgi_temp_path $CL_DIR/nginx-tmp/uwsgi;
  scgi_temp_path $CL_DIR/nginx-tmp/scgi;
  upstream events {
$servers    keepalive 32;
  }
  server {
    listen 127.0.0.1:$CL_LB_PORT;
    location / {
      proxy_pass http://events;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_next_upstream error timeout http_502 http_503 http_504;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 1s;
      proxy_read_timeout 10s;
      proxy_buffers 16 64k;
      proxy_max_temp_file_size 0;
    }
  }
}
CONF
  nginx -e "$CL_DIR/nginx-error.log" -p "$CL_DIR" -c "$CL_DIR/nginx.conf" &
  CL_PIDS+=($!)
  CL_NGINX_PID=$!
}

# cl_ready I: instance I's /ready body (empty when it does not answer).
cl_ready() { curl -s --max-time 1 "http://127.0.0.1:$((CL_BASE_PORT + $1))/ready" 2>/dev/null || true; }

# cl_json_field NAME BODY: a number or string value of "NAME" in a flat JSON text.
cl_json_field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p" <<<"$2" | head -n 1; }

# cl_leader N: the instance number (1..N) reporting "role":"leader", or empty.
cl_leader() {
  local i
  for ((i = 1; i <= $1; i++)); do
    [ -n "${CL_INSTANCE_PID[$i]:-}" ] && kill -0 "${CL_INSTANCE_PID[$i]}" 2>/dev/null || continue
    if cl_ready "$i" | grep -q '"role":"leader"'; then echo "$i"; return 0; fi
  done
}

cl_cleanup() {
  local p
  for p in "${CL_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ -n "$CL_PG_BIN" ] && [ -f "$CL_PG_DATA/postmaster.pid" ]; then
    cl_as_pg "$CL_PG_BIN/pg_ctl" -D "$CL_PG_DATA" -m immediate -w -t 20 stop >/dev/null 2>&1 || true
  fi
  if [ -n "${CL_KEEP:-}" ]; then echo "cluster: logs kept in $CL_DIR"; else rm -rf "$CL_DIR"; fi
}
