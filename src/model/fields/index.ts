export * from './types.js';
export * from './walk.js';
export * from './values.js';
export { CIDR_SHAPE_REGEX, ENV_NAME_REGEX, KEY_REGEX, REGION_REGEX, keySchema, nameSchema, regionCodeSchema, sizeSchema } from './common.js';
export { endpointOf, num, str, type AddonDto, type EndpointDto, type EnvironmentTagDto, type MetadataDto, type ResourceSpecDto, type ServiceTypeDto, type VpcEndpointDto } from './wire.js';
export { SERVICE_FIELDS, vpcEndpointOf, vpcIdOf, type DesiredServiceFields, type LiveServiceFields, type ServiceFieldsDto } from './service.js';
export { mapHa, sizeOfSpec } from './service-settings.js';
export { REPLICA_SET_FIELDS, type DesiredReplicaSetFields, type LiveReplicaSetFields, type ReplicaSetFieldsDto } from './replica-set.js';
