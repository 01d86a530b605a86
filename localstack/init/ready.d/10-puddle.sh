#!/bin/bash
# LocalStack runs this once it is ready: the AWS resources a Puddle deployment has besides its
# database, named as the local twin names them. Used by docker-compose.yml and by the
# Testcontainers tests in this module, which wait until LocalStack reports it SUCCESSFUL
# (GET /_localstack/init/ready).
set -euo pipefail

awslocal s3api create-bucket --bucket puddle-warehouse >/dev/null

# the purge queue and its dead-letter queue: visibility 6 x the purge function's 300 s, 5 receives
dlq_url=$(awslocal sqs create-queue --queue-name puddle-purge-dlq \
  --attributes MessageRetentionPeriod=1209600 --query QueueUrl --output text)
dlq_arn=$(awslocal sqs get-queue-attributes --queue-url "$dlq_url" \
  --attribute-names QueueArn --query Attributes.QueueArn --output text)
awslocal sqs create-queue --queue-name puddle-purge --attributes "{
  \"VisibilityTimeout\": \"1800\",
  \"MessageRetentionPeriod\": \"1209600\",
  \"RedrivePolicy\": \"{\\\"deadLetterTargetArn\\\":\\\"$dlq_arn\\\",\\\"maxReceiveCount\\\":\\\"5\\\"}\"
}" >/dev/null

# the database login as RDS keeps it, and the token signing key
awslocal secretsmanager create-secret --name puddle/database \
  --secret-string '{"username":"puddle","password":"puddle-local-secret"}' >/dev/null
# an empty JWK set, as the CDK stack deploys it: the token function generates the first key
awslocal secretsmanager create-secret --name puddle/token-signing-key \
  --secret-string '{"keys":[]}' >/dev/null

echo "Puddle resources created"
