#!/bin/sh
# cdk.json's "app": builds this module (and core, whose route table it reads) with the Maven
# wrapper, then runs the CDK app with the module's class path. Needs JDK 21+ (JAVA_HOME or java).
set -e
cd "$(dirname "$0")"
../mvnw -q -B -f ../pom.xml -pl infra-cdk -am process-classes -Dmaven.test.skip=true
JAVA="java"
if [ -n "$JAVA_HOME" ]; then JAVA="$JAVA_HOME/bin/java"; fi
exec "$JAVA" -cp "target/classes:$(cat target/app-classpath.txt)" dev.puddle.cdk.PuddleApp
