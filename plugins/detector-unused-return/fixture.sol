pragma solidity ^0.8.0;

interface IRouter {
    function addLiquidity(uint256 a, uint256 b) external returns (uint256 liquidity);
    function sync() external;
    function quote(uint256 a) external view returns (uint256);
}

contract Vault {
    IRouter public router;
    mapping(address => uint256) public shares;

    function deposit(uint256 a, uint256 b) external {
        router.addLiquidity(a, b); // expect: unused-return
        shares[msg.sender] += a + b;
    }

    function depositUsed(uint256 a, uint256 b) external {
        uint256 minted = router.addLiquidity(a, b);
        shares[msg.sender] += minted;
        router.sync();
    }
}
